"""One signed webhook event, delivered: the signature, the headers, the POST to a checked and
pinned address and the retries of @seekframe/producer's webhooks (webhook-signature.ts,
deliver-webhook.ts, public-webhook-sender.ts) for the Python app. Plain Python (stdlib only):
no Modal, no FastAPI. A receiver verifies these deliveries with `verifyWebhook()` of
@seekframe/render-api/webhooks (apps/modal-function/test/webhooks.test.ts does)."""

import hashlib
import hmac
import http.client
import json
import re
import socket
import ssl
import threading
import time
import uuid
from datetime import datetime, timezone
from typing import Any, Callable

from webhook_addresses import AddressRefused, blocked_by, resolve_public

SIGNATURE_HEADER = "Seekframe-Signature"
WEBHOOK_ID_HEADER = "Seekframe-Webhook-Id"
WEBHOOK_EVENT_HEADER = "Seekframe-Event"
# Waits before the 2nd..5th attempt, and one attempt's limit: as DEFAULT_RETRY_DELAYS_MS and
# DEFAULT_DELIVERY_TIMEOUT_MS in deliver-webhook.ts.
RETRY_DELAYS_SECONDS = (1.0, 4.0, 16.0, 64.0)
DELIVERY_TIMEOUT_SECONDS = 10.0
# A receiver's answer is read (and dropped) up to this many bytes; the status is what counts.
MAX_ANSWER_BYTES = 64 * 1024
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def sign(body: bytes, secret: str, timestamp: int) -> str:
    """`t=<unix seconds>,v1=<hex>`, the hex being HMAC-SHA256(secret, `<t>.<body>`)."""
    mac = hmac.new(secret.encode("utf-8"), f"{timestamp}.".encode("ascii") + body, hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={mac}"


def iso_time(seconds: float) -> str:
    """JavaScript's Date#toISOString: UTC, milliseconds, a Z."""
    moment = datetime.fromtimestamp(seconds, timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def build_event(render_id: str, event_type: str, data: dict[str, Any], webhook: dict[str, Any], now: float | None = None) -> dict[str, Any]:
    """One event in the envelope of buildWebhookEvent: a fresh id, the time, the caller's customData."""
    event: dict[str, Any] = {"id": f"evt_{uuid.uuid4().hex}", "type": event_type, "createdAt": iso_time(time.time() if now is None else now), "renderId": render_id}
    if "customData" in webhook:
        event["customData"] = webhook["customData"]
    event["data"] = data
    return event


def event_body(event: dict[str, Any]) -> bytes:
    """The bytes JSON.stringify would send: no spaces, text as UTF-8, and (as JSON.stringify does)
    a lone surrogate, which customData may carry, escaped, so the body is always valid UTF-8."""
    text = json.dumps(event, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return _LONE_SURROGATE.sub(lambda match: f"\\u{ord(match.group()):04x}", text).encode("utf-8")


class SendFailed(Exception):
    def __init__(self, message: str, retryable: bool = True):
        super().__init__(message)
        self.retryable = retryable


def post_once(target: dict[str, Any], body: bytes, headers: list[tuple[str, str]], timeout: float, allow_loopback: bool) -> int:
    """One POST without redirects; answers the status. `target` is the URL as WHATWG URL parsing
    read it at POST (check-request.mjs): scheme, host (no brackets), hostLabel, port, path. The
    host is resolved once and refused when any answer is blocked; the socket connects to one of
    those addresses (Host and SNI carry the name). The whole attempt, name resolution included,
    ends at `timeout` (the socket is shut then)."""
    deadline = time.monotonic() + timeout
    timed_out = threading.Event()
    sock: socket.socket | None = None
    try:
        try:
            addresses = resolve_public(target["host"], target["port"], target["hostLabel"], blocked_by(allow_loopback), timeout)
        except AddressRefused as error:
            raise SendFailed(f"refused: {error}", retryable=False) from None
        last_error: OSError | None = None
        for family, address in addresses:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            try:
                sock = socket.create_connection((address, target["port"]), timeout=left)
                break
            except OSError as error:
                last_error = error
        if sock is None:
            if time.monotonic() >= deadline:
                raise TimeoutError
            raise last_error or OSError("ECONNREFUSED")
        # The deadline bounds everything after the connect, however slowly a receiver trickles bytes.
        watchdog = threading.Timer(max(0.0, deadline - time.monotonic()), _shut, (sock, timed_out))
        watchdog.daemon = True
        watchdog.start()
        try:
            if target["scheme"] == "https":
                sock = ssl.create_default_context().wrap_socket(sock, server_hostname=target["host"])
                connection: http.client.HTTPConnection = http.client.HTTPSConnection(target["host"], target["port"], timeout=timeout)
            else:
                connection = http.client.HTTPConnection(target["host"], target["port"], timeout=timeout)
            connection.sock = sock  # connect to the checked address, never to a new lookup
            connection.putrequest("POST", target["path"], skip_accept_encoding=True)
            for name, value in headers:
                connection.putheader(name, value)
            connection.putheader("content-length", str(len(body)))
            connection.putheader("Connection", "close")
            connection.endheaders(body)
            response = connection.getresponse()
            status = response.status
            try:
                response.read(MAX_ANSWER_BYTES)
            except (OSError, http.client.HTTPException):
                pass  # the body is discarded anyway
            return status
        finally:
            watchdog.cancel()
    except SendFailed:
        raise
    except (TimeoutError, socket.timeout):
        raise SendFailed(f"no answer within {round(timeout * 1000)} ms") from None
    except (OSError, http.client.HTTPException) as error:
        if timed_out.is_set():
            raise SendFailed(f"no answer within {round(timeout * 1000)} ms") from None
        raise SendFailed(f"the request failed: {_error_code(error)}") from None
    finally:
        if sock is not None:
            sock.close()


def _shut(sock: socket.socket, timed_out: threading.Event) -> None:
    timed_out.set()
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass


def _error_code(error: BaseException) -> str:
    """Node's words for a failed request (ECONNREFUSED, ECONNRESET, ENOTFOUND...) where there are some."""
    import errno

    if isinstance(error, ssl.SSLError):  # an OSError too, whose errno says nothing
        detail = getattr(error, "verify_message", None)
        return f"TLS {error.reason or error}{f' ({detail})' if detail else ''}"
    if isinstance(error, OSError) and error.errno in errno.errorcode:
        return errno.errorcode[error.errno]
    return str(error) or type(error).__name__


def deliver(target: dict[str, Any], event: dict[str, Any], *, secret: str, allow_loopback: bool, retry_delays: tuple[float, ...] = RETRY_DELAYS_SECONDS,
            timeout: float = DELIVERY_TIMEOUT_SECONDS, on_attempt: Callable[[dict[str, Any]], None] | None = None, send: Callable[..., int] = post_once) -> list[dict[str, Any]]:
    """Delivers one event as deliverWebhook: signed afresh for every attempt; 5xx, timeouts and
    network errors retried after `retry_delays`; a 2xx ends it, and so does a 4xx, a 3xx
    (redirects are not followed) or a refused address, which are not retried. Never raises;
    answers every attempt (the records GET /api/render/:id lists)."""
    body = event_body(event)
    attempts: list[dict[str, Any]] = []
    for index in range(len(retry_delays) + 1):
        started = time.time()
        clock = time.monotonic()
        status: int | None = None
        error: str | None = None
        retryable = True
        headers = [
            ("content-type", "application/json"),
            ("user-agent", "Seekframe-Webhooks/1"),
            (SIGNATURE_HEADER, sign(body, secret, int(started))),
            (WEBHOOK_ID_HEADER, event["id"]),
            (WEBHOOK_EVENT_HEADER, event["type"]),
        ]
        try:
            status = send(target, body, headers, timeout, allow_loopback)
            if 300 <= status < 400:
                error, retryable = f"the receiver answered HTTP {status} (a redirect); deliveries do not follow redirects, so give the final URL", False
            elif 400 <= status < 500:
                error, retryable = f"the receiver answered HTTP {status}", False
            elif status >= 500 or status < 200:
                error = f"the receiver answered HTTP {status}"
        except SendFailed as failure:
            error, retryable = str(failure), failure.retryable
        except Exception as failure:  # never into the render: an attempt that broke is a failed attempt
            error = f"the request failed: {failure}"
        ok = error is None
        will_retry = not ok and retryable and index < len(retry_delays)
        attempt = {"eventId": event["id"], "event": event["type"], "attempt": index + 1, "at": iso_time(started), "status": status, "ok": ok,
                   "durationMs": max(0, round((time.monotonic() - clock) * 1000)), **({"error": error} if error else {}), "willRetry": will_retry}
        attempts.append(attempt)
        if on_attempt is not None:
            try:
                on_attempt(attempt)
            except Exception:
                pass  # recording is best effort; the delivery goes on
        if not will_retry:
            break
        time.sleep(retry_delays[index])
    return attempts
