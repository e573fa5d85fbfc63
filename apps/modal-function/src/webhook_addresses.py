"""Which addresses a webhook delivery may reach: the rules of isPrivateAddress and
isLoopbackAddress in @seekframe/producer (src/network/private-address.ts) for the Python app,
and the one name resolution a delivery connects with. Plain Python: no Modal, no FastAPI.
apps/modal-function/test/webhooks.test.ts checks these answers against the TypeScript ones."""

import ipaddress
import socket
import threading

# IPv4: "this network", private, carrier-grade NAT, loopback, link-local, IETF protocol
# assignments, documentation, 6to4 relay, benchmarking, multicast, reserved and broadcast.
_BLOCKED_V4 = [ipaddress.IPv4Network(net) for net in (
    "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12",
    "192.0.0.0/24", "192.0.2.0/24", "192.88.99.0/24", "192.168.0.0/16", "198.18.0.0/15",
    "198.51.100.0/24", "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4",
)]
# IPv6 is an allow-list (global unicast 2000::/3 only); these global unicast blocks are still
# special: Teredo and the other IETF assignments, documentation.
_BLOCKED_GLOBAL_V6 = [ipaddress.IPv6Network(net) for net in ("2001::/23", "2001:db8::/32", "3fff::/20")]
_GLOBAL_UNICAST = ipaddress.IPv6Network("2000::/3")


class AddressRefused(Exception):
    """A host that may not be reached; the message is a sentence for the user. `kind` says what
    kind of address was refused ("loopback", "unspecified", "private"; None for a name that does
    not resolve), so the refusal can say what would help (refusal_hint)."""

    def __init__(self, message: str, kind: str | None = None):
        super().__init__(message)
        self.kind = kind


def _parse(address: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    # A zone id (fe80::1%eth0) says which interface; the address decides.
    bare = address.split("%", 1)[0]
    try:
        return ipaddress.ip_address(bare)
    except ValueError:
        return None


def _v4_blocked(address: ipaddress.IPv4Address) -> bool:
    return any(address in net for net in _BLOCKED_V4)


def _embedded_v4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None | bool:
    """The IPv4 address an IPv6 address reaches (mapped, NAT64, 6to4); False when it is not such
    a form, None when it is one whose IPv4 part cannot be located (refused)."""
    words = [int.from_bytes(address.packed[i:i + 2], "big") for i in range(0, 16, 2)]

    def v4(high: int, low: int) -> ipaddress.IPv4Address:
        return ipaddress.IPv4Address((high << 16) | low)

    if all(w == 0 for w in words[0:5]) and words[5] == 0xFFFF:
        return v4(words[6], words[7])
    if words[0] == 0x64 and words[1] == 0xFF9B and all(w == 0 for w in words[2:6]):
        return v4(words[6], words[7])
    if words[0] == 0x64 and words[1] == 0xFF9B and words[2] == 1:
        return v4(words[6], words[7]) if all(w == 0 for w in words[3:6]) else None
    if words[0] == 0x2002:
        return v4(words[1], words[2])
    return False


def is_private_address(address: str) -> bool:
    """True for every address a delivery may not reach (anything that is not an IP address too)."""
    parsed = _parse(address)
    if parsed is None:
        return True
    if isinstance(parsed, ipaddress.IPv4Address):
        return _v4_blocked(parsed)
    embedded = _embedded_v4(parsed)
    if embedded is not False:
        return embedded is None or _v4_blocked(embedded)
    if parsed not in _GLOBAL_UNICAST:
        return True
    return any(parsed in net for net in _BLOCKED_GLOBAL_V6)


def is_loopback_address(address: str) -> bool:
    """127.0.0.0/8, ::1 and ::ffff:127.x: what RENDER_WEBHOOK_ALLOW_LOOPBACK=true opens, nothing more."""
    parsed = _parse(address)
    # A mapped address in any spelling is its IPv4 address (Node's BlockList judges it so too).
    if isinstance(parsed, ipaddress.IPv6Address) and parsed.ipv4_mapped is not None:
        parsed = parsed.ipv4_mapped
    if isinstance(parsed, ipaddress.IPv4Address):
        return parsed in ipaddress.IPv4Network("127.0.0.0/8")
    return parsed == ipaddress.IPv6Address("::1")


def is_unspecified_address(address: str) -> bool:
    """0.0.0.0/8 ("this network"), :: and their IPv4-mapped forms: the unspecified address, which
    names no host. Never a receiver's address: the loopback opt-in does not open it
    (isUnspecifiedAddress in @seekframe/producer)."""
    parsed = _parse(address)
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed == ipaddress.IPv6Address("::"):
            return True
        parsed = parsed.ipv4_mapped
    return isinstance(parsed, ipaddress.IPv4Address) and parsed in ipaddress.IPv4Network("0.0.0.0/8")


def refused_address_kind(address: str) -> str:
    """"loopback", "unspecified" or "private": what refused_address records (refusedAddressKind)."""
    if is_loopback_address(address):
        return "loopback"
    return "unspecified" if is_unspecified_address(address) else "private"


def refusal_hint(kind: str | None) -> str:
    """What would help, as refusalHint in @seekframe/producer: only a loopback refusal means the
    opt-in is off, so only it suggests RENDER_WEBHOOK_ALLOW_LOOPBACK."""
    if kind == "loopback":
        return "Use a public http(s) address (for a receiver on this machine in local tests, set RENDER_WEBHOOK_ALLOW_LOOPBACK=true)."
    if kind == "unspecified":
        return ("The unspecified address (0.0.0.0, [::]) names no receiver, and RENDER_WEBHOOK_ALLOW_LOOPBACK cannot open it "
                "(it opens only 127.0.0.0/8, [::1] and localhost): use a public http(s) address, or 127.0.0.1 for a receiver on this machine in local tests.")
    return "Use a public http(s) address."


def localhost_addresses(host: str) -> list[tuple[int, str]] | None:
    """`localhost`, `localhost.` and every name under it: loopback by definition (RFC 6761,
    section 6.3), answered without asking the resolver (localhostAddresses in @seekframe/producer)."""
    name = host.lower()
    if name.endswith("."):
        name = name[:-1]
    if name == "localhost" or name.endswith(".localhost"):
        return [(socket.AF_INET, "127.0.0.1"), (socket.AF_INET6, "::1")]
    return None


def blocked_by(allow_loopback: bool):
    """The webhook rule: the media rule (public only), with loopback when opted in for local tests."""
    if allow_loopback:
        return lambda address: is_private_address(address) and not is_loopback_address(address)
    return is_private_address


def refused_address(host: str, address: str) -> AddressRefused:
    return AddressRefused(f"{host} resolves to {address}, a loopback/private/link-local address, which renders started by the server may not reach", refused_address_kind(address))


def resolve_public(host: str, port: int, host_label: str, is_blocked, timeout: float) -> list[tuple[int, str]]:
    """The addresses to connect to for `host`, resolved once: an IP literal as it is, a name through
    the system resolver. Refused (AddressRefused) when any answer is blocked, as the checked lookup
    of @seekframe/producer; raises OSError("ENOTFOUND") when the name does not resolve in time."""
    literal = _parse(host)
    if literal is not None:
        if is_blocked(host):
            raise refused_address(host_label, host)
        return [(socket.AF_INET if isinstance(literal, ipaddress.IPv4Address) else socket.AF_INET6, host)]
    by_definition = localhost_addresses(host)
    if by_definition is not None:
        for _family, address in by_definition:
            if is_blocked(address):
                raise refused_address(host_label, address)
        return by_definition
    answers: list = []
    failure: list[BaseException] = []

    def lookup() -> None:
        try:
            answers.extend(socket.getaddrinfo(host, port, type=socket.SOCK_STREAM))
        except OSError as error:
            failure.append(error)

    # getaddrinfo has no timeout of its own: the delivery's deadline bounds it.
    worker = threading.Thread(target=lookup, daemon=True)
    worker.start()
    worker.join(timeout)
    if worker.is_alive() or failure or not answers:
        raise OSError("ENOTFOUND")
    seen: list[tuple[int, str]] = []
    for family, _type, _proto, _name, sockaddr in answers:
        entry = (family, sockaddr[0])
        if entry not in seen:
            seen.append(entry)
    for _family, address in seen:
        if is_blocked(address):
            raise refused_address(host, address)
    return seen


def check_webhook_url(target: dict, allow_loopback: bool, timeout: float = 10.0) -> None:
    """Refuses, before a render is accepted, a webhook whose host is or resolves to an address a
    delivery may not reach (checkWebhookUrl in @seekframe/producer); the message is a sentence."""
    try:
        resolve_public(target["host"], target["port"], target["hostLabel"], blocked_by(allow_loopback), timeout)
    except OSError as error:
        # A name that does not resolve now will not be reached later either.
        raise AddressRefused(f"its host {target['hostLabel']} could not be resolved ({error})") from None
