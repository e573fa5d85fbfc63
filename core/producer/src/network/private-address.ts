import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Every address a host name resolves to (DNS, /etc/hosts); a parameter so tests answer without DNS. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** The machine's resolver (getaddrinfo: /etc/hosts, then DNS). */
export const systemResolver: Resolver = async (hostname) => lookup(hostname, { all: true, verbatim: true });

const LOCALHOST_ADDRESSES: readonly ResolvedAddress[] = [
  { address: '127.0.0.1', family: 4 },
  { address: '::1', family: 6 },
];

/**
 * `localhost`, `localhost.` and every name under it (`x.localhost`): loopback by definition
 * (RFC 6761, section 6.3), so they are answered here, 127.0.0.1 and ::1, and never sent to a
 * resolver, which would pass `x.localhost` or the absolute `localhost.` on to the network's DNS.
 * Undefined for any other name.
 */
export function localhostAddresses(hostname: string): ResolvedAddress[] | undefined {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost') ? LOCALHOST_ADDRESSES.map((entry) => ({ ...entry })) : undefined;
}

/** What `hostname` resolves to: a `localhost` name by definition, anything else through `resolver`. */
export async function resolveHost(hostname: string, resolver: Resolver = systemResolver): Promise<ResolvedAddress[]> {
  return localhostAddresses(hostname) ?? resolver(hostname);
}

/**
 * IPv4 ranges a page rendered for a server client must never reach: "this network", private,
 * carrier-grade NAT, loopback, link-local, IETF protocol assignments, documentation, benchmarking,
 * multicast, reserved and broadcast. A render request comes from the network, so its page is
 * untrusted; without this it could probe the host's own services, the LAN or a cloud metadata
 * endpoint.
 */
const BLOCKED_V4 = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  // 240.0.0.0/4 (reserved) also holds the limited broadcast 255.255.255.255.
  ['240.0.0.0', 4],
] as const) {
  BLOCKED_V4.addSubnet(net, prefix, 'ipv4');
}

/**
 * IPv6 is an allow-list: only global unicast (2000::/3) can be public, which leaves out ::/96,
 * 100::/64 (discard), fc00::/7, fec0::/10, fe80::/10, ff00::/8 and the rest at once. Ranges that
 * carry an IPv4 address (mapped, NAT64, 6to4) are judged by that address; these are the global
 * unicast blocks that are still special.
 */
const BLOCKED_GLOBAL_V6 = new BlockList();
for (const [net, prefix] of [
  // Teredo (2001::/32) and the other IETF protocol assignments, documentation.
  ['2001::', 23],
  ['2001:db8::', 32],
  ['3fff::', 20],
] as const) {
  BLOCKED_GLOBAL_V6.addSubnet(net, prefix, 'ipv6');
}

export function isPrivateAddress(address: string): boolean {
  // A zone id (fe80::1%eth0) says which interface; the address decides.
  const bare = address.replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return BLOCKED_V4.check(bare, 'ipv4');
  if (family !== 6) return true;
  const words = ipv6Words(bare);
  if (!words) return true;
  const embedded = embeddedIpv4(words);
  if (embedded !== undefined) return embedded === null || BLOCKED_V4.check(embedded, 'ipv4');
  if ((words[0]! & 0xe000) !== 0x2000) return true;
  return BLOCKED_GLOBAL_V6.check(bare, 'ipv6');
}

/**
 * The IPv4 address an IPv6 address stands for, when it is one of the forms that reach an IPv4
 * host: `undefined` when it is not such a form, `null` when it is but the IPv4 part cannot be
 * located (refused).
 */
function embeddedIpv4(words: number[]): string | null | undefined {
  const v4 = (high: number, low: number): string => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  const zeros = (from: number, to: number): boolean => words.slice(from, to).every((w) => w === 0);
  // ::ffff:0:0/96, IPv4-mapped: the socket talks IPv4 to the embedded address.
  if (zeros(0, 5) && words[5] === 0xffff) return v4(words[6]!, words[7]!);
  // 64:ff9b::/96, well-known NAT64 prefix: the translator connects to the embedded address.
  if (words[0] === 0x64 && words[1] === 0xff9b && zeros(2, 6)) return v4(words[6]!, words[7]!);
  // 64:ff9b:1::/48, local-use NAT64: judged like the /96 form; other prefix lengths put the
  // IPv4 part where it cannot be told apart, so they are refused.
  if (words[0] === 0x64 && words[1] === 0xff9b && words[2] === 1) return zeros(3, 6) ? v4(words[6]!, words[7]!) : null;
  // 2002::/16, 6to4: the relay forwards to the IPv4 address in bits 16-47.
  if (words[0] === 0x2002) return v4(words[1]!, words[2]!);
  return undefined;
}

/** The eight 16-bit words of an IPv6 address (with `::` and a dotted IPv4 tail expanded). */
function ipv6Words(address: string): number[] | null {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const part = (s: string | undefined): number[] => (s ? s.split(':').map((w) => parseInt(w, 16)) : []);
  const head = part(halves[0]);
  const tail = part(halves[1]);
  const fill = halves.length === 2 ? 8 - head.length - tail.length : 0;
  const words = [...head, ...Array<number>(Math.max(0, fill)).fill(0), ...tail];
  return words.length === 8 && words.every((w) => Number.isInteger(w) && w >= 0 && w <= 0xffff) ? words : null;
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/**
 * 127.0.0.0/8 and ::1 (and ::ffff:127.x): only for the explicit local-testing opt-ins, which let
 * a server started on a laptop reach a receiver on the same machine and nothing else private.
 */
export function isLoopbackAddress(address: string): boolean {
  const bare = address.replace(/%.*$/, '').replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1');
  const family = isIP(bare);
  return family === 4 ? LOOPBACK.check(bare, 'ipv4') : family === 6 ? LOOPBACK.check(bare, 'ipv6') : false;
}

/**
 * "This network" (0.0.0.0/8), `::`, and their IPv4-mapped forms: the unspecified address, which
 * names no host (Linux connects it to the machine itself). Never a webhook receiver's address, so
 * the loopback opt-in does not open it, and its refusal says so rather than suggesting the opt-in.
 */
export function isUnspecifiedAddress(address: string): boolean {
  const bare = address.replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return bare.split('.')[0] === '0';
  if (family !== 6) return false;
  const words = ipv6Words(bare);
  if (!words) return false;
  if (words.every((w) => w === 0)) return true;
  const mapped = words.slice(0, 5).every((w) => w === 0) && words[5] === 0xffff;
  return mapped && words[6]! >> 8 === 0;
}

/** What kind of address a refusal is about, so the message can say what would help. */
export type RefusedAddressKind = 'loopback' | 'unspecified' | 'private';

export function refusedAddressKind(address: string): RefusedAddressKind {
  return isLoopbackAddress(address) ? 'loopback' : isUnspecifiedAddress(address) ? 'unspecified' : 'private';
}

/** Why a host may not be reached; the message is a sentence for the user. */
export class AddressRefusedError extends Error {
  override readonly name = 'AddressRefusedError';
  /** Set when an address was refused (not for a bad URL or an unresolvable name). */
  readonly kind: RefusedAddressKind | undefined;
  constructor(message: string, kind?: RefusedAddressKind) {
    super(message);
    this.kind = kind;
  }
}

/** The refusal for `host` resolving to `address`. */
export function refusedAddress(host: string, address: string): AddressRefusedError {
  return new AddressRefusedError(
    `${host} resolves to ${address}, a loopback/private/link-local address, which renders started by the server may not reach`,
    refusedAddressKind(address),
  );
}

/** Parses the URL and refuses anything but http(s). */
export function parsePublicUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new AddressRefusedError('it is not a valid URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new AddressRefusedError(`${parsed.protocol} URLs are not allowed; only http(s)`);
  }
  return parsed;
}

/**
 * Resolves the URL's host and throws (a sentence for the user) unless it is http(s) and every
 * address it resolves to is public. A check only: fetchPublic connects through the checked
 * lookup instead, so a second resolution cannot answer differently.
 */
export async function assertPublicUrl(
  url: string,
  isBlocked: (address: string) => boolean = isPrivateAddress,
  resolver: Resolver = systemResolver,
): Promise<void> {
  const parsed = parsePublicUrl(url);
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  const addresses = isIP(host) ? [host] : (await resolveHost(host, resolver)).map((entry) => entry.address);
  const blocked = addresses.find(isBlocked);
  if (blocked !== undefined) throw refusedAddress(parsed.hostname, blocked);
}
