import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import {
  isPrivateAddress,
  parsePublicUrl,
  refusedAddress,
  resolveHost,
  systemResolver,
  type ResolvedAddress,
  type Resolver,
} from './private-address.js';

export type { ResolvedAddress, Resolver } from './private-address.js';

/**
 * The `lookup` a request connects with: it resolves the host once, refuses the whole host when
 * any answer is loopback/private/link-local/special, and hands the socket exactly the addresses
 * it checked. Checking in one step and connecting in another would resolve twice, and a DNS
 * server that answers "public" first and "127.0.0.1" second (rebinding) would win.
 */
export function createCheckedLookup(
  resolver: Resolver = systemResolver,
  isBlocked: (address: string) => boolean = isPrivateAddress,
): LookupFunction {
  return (hostname, options, callback) => {
    const done = callback as (error: NodeJS.ErrnoException | null, address: string | ResolvedAddress[], family?: number) => void;
    // A `localhost` name never reaches the resolver (RFC 6761): it is loopback, and judged so.
    resolveHost(hostname, resolver).then(
      (addresses) => {
        const blocked = addresses.find((entry) => isBlocked(entry.address));
        if (blocked) return done(refusedAddress(hostname, blocked.address), '');
        const usable =
          options.family === 4 || options.family === 6 ? addresses.filter((entry) => entry.family === options.family) : addresses;
        if (usable.length === 0) return done(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '');
        if (options.all) return done(null, usable);
        return done(null, usable[0]!.address, usable[0]!.family);
      },
      (error: NodeJS.ErrnoException) => done(error, ''),
    );
  };
}

/** What fetchPublic needs to know; tests pass a resolver and a policy, never real DNS. */
export interface FetchPublicOptions {
  signal: AbortSignal;
  maxRedirects?: number;
  resolver?: Resolver;
  isBlocked?: (address: string) => boolean;
}

/**
 * GET over http(s) that reaches public addresses only: each hop (redirects included) connects
 * through the checked lookup, and an IP literal in the URL is checked before any socket opens.
 */
export async function fetchPublic(url: string, options: FetchPublicOptions): Promise<Response> {
  const maxRedirects = options.maxRedirects ?? 5;
  const isBlocked = options.isBlocked ?? isPrivateAddress;
  const lookup = createCheckedLookup(options.resolver, isBlocked);
  let current = url;
  for (let hop = 0; hop <= maxRedirects; hop++) {
    const parsed = parsePublicUrl(current);
    const literal = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
    // An IP literal never goes through lookup, so it is checked here.
    if (isIP(literal) && isBlocked(literal)) throw refusedAddress(parsed.hostname, literal);
    const response = await get(parsed, lookup, options.signal);
    const location = response.headers.location;
    if (response.statusCode! < 300 || response.statusCode! >= 400 || !location) return toResponse(response, current);
    response.resume();
    current = new URL(location, current).href;
  }
  throw new Error(`more than ${maxRedirects} redirects`);
}

function get(url: URL, lookup: LookupFunction, signal: AbortSignal): Promise<IncomingMessage> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    // agent: false: a fresh connection per hop, so the socket always comes from this lookup and
    // never from a pool where another request's (differently checked) connection waits.
    const req = request(
      url,
      { method: 'GET', lookup, signal, agent: false, headers: { accept: '*/*', 'user-agent': 'seekframe' } },
      resolve,
    );
    req.once('error', reject);
    req.end();
  });
}

/** Statuses whose Response may not carry a body. */
const NULL_BODY = new Set([101, 204, 205, 304]);

function toResponse(message: IncomingMessage, url: string): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(message.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const status = message.statusCode ?? 502;
  const body = NULL_BODY.has(status) ? null : (Readable.toWeb(message) as ReadableStream<Uint8Array>);
  if (!body) message.resume();
  const response = new Response(body, { status, headers });
  // The URL after redirects, as fetch() reports it (stylesheets resolve their url()s against it).
  Object.defineProperty(response, 'url', { value: url });
  return response;
}
