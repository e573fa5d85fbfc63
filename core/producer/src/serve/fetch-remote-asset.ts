import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { getMimeType } from 'hono/utils/mime';
import { parseGoogleFontsUrl, SeekframeError } from '@seekframe/composition';
import { googleFontsCss } from './fonts/google-fonts-css.js';
import { resolveCdnUrl } from './resolve-cdn-url.js';
import { rewriteCssUrls } from './rewrite-css-urls.js';
import { fetchPublic } from '../network/fetch-public.js';
import { AddressRefusedError } from '../network/private-address.js';

export interface RemoteAsset {
  status: number;
  contentType: string;
  body: Buffer;
  /** `local` when an npm CDN URL was answered from an installed package. */
  source: 'local' | 'network';
  file?: string;
}

/**
 * Answers a remote URL the page asked for: npm CDN URLs from the local package when installed,
 * everything else over the network with a time limit. Any failure is a `remote-asset-failed`
 * error naming the URL, because a missing script or image silently breaks frames.
 */
export async function fetchRemoteAsset(
  url: string,
  options: {
    timeoutMs: number;
    searchRoots: readonly string[];
    referrer?: string | undefined;
    /** Refuse loopback/private/link-local hosts (checked on every redirect). */
    publicOnly?: boolean;
    /** Largest body accepted, default {@link REMOTE_ASSET_MAX_BYTES}: a page must not fill the server's memory or disk. */
    maxBytes?: number;
    /** Ends the download early (the project server closing): an unanswered request must not hold the process for its whole time limit. */
    signal?: AbortSignal;
  },
): Promise<RemoteAsset> {
  // Google Fonts stylesheets are written from installed @fontsource packages, never fetched.
  const googleFonts = parseGoogleFontsUrl(url);
  if (googleFonts) {
    return { status: 200, contentType: 'text/css; charset=utf-8', body: Buffer.from(await googleFontsCss(googleFonts, options.searchRoots)), source: 'local' };
  }
  const local = await resolveCdnUrl(url, options.searchRoots);
  if (local) {
    const contentType = contentTypeOf(local);
    return { status: 200, contentType, body: cssAware(await readFile(local), contentType, url), source: 'local', file: local };
  }
  const fail = (why: string, cause?: unknown): SeekframeError =>
    new SeekframeError(
      'remote-asset-failed',
      `Could not load ${url}${options.referrer ? ` (referenced by ${options.referrer})` : ''}: ${why}. ` +
        'Check the URL and the network, or copy the file into the project folder and reference it locally.',
      { stage: 'serve', retryable: true, details: { url, ...(options.referrer ? { referrer: options.referrer } : {}) }, cause },
    );
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  const timedOut = (): boolean => timeout.aborted;
  let response: Response;
  try {
    response = options.publicOnly ? await fetchPublic(url, { signal }) : await fetch(url, { signal, redirect: 'follow' });
  } catch (error) {
    throw fail(timedOut() ? `no answer within ${options.timeoutMs} ms` : describeFetchError(error), error);
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw fail(`the server answered HTTP ${response.status}`);
  }
  const contentType = response.headers.get('content-type') ?? 'application/octet-stream';
  let bytes: Buffer;
  try {
    bytes = await readCapped(response, options.maxBytes ?? REMOTE_ASSET_MAX_BYTES);
  } catch (error) {
    if (error instanceof TooLargeError) throw fail(`it is larger than ${error.maxBytes} bytes, the most a remote asset may be`);
    throw fail(timedOut() ? `the download did not finish within ${options.timeoutMs} ms` : describeFetchError(error), error);
  }
  const body = cssAware(bytes, contentType, response.url || url);
  return { status: 200, contentType, body, source: 'network' };
}

/** 512 MiB: far above any web font, image or clip a composition should fetch, far below a full disk. */
export const REMOTE_ASSET_MAX_BYTES = 512 * 1024 * 1024;

class TooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`larger than ${maxBytes} bytes`);
  }
}

/** The body, refused (and the download stopped) as soon as it passes `maxBytes`, whatever Content-Length claimed. */
async function readCapped(response: Response, maxBytes: number): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new TooLargeError(maxBytes);
  }
  if (!response.body) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let total = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new TooLargeError(maxBytes);
    }
    chunks.push(Buffer.from(value));
  }
  return Buffer.concat(chunks, total);
}

/** Stylesheets keep working from the remote route: their relative url()s go through it too. */
function cssAware(body: Buffer, contentType: string, url: string): Buffer {
  if (!/^text\/css\b/i.test(contentType)) return body;
  return Buffer.from(rewriteCssUrls(body.toString('utf8'), url));
}

function describeFetchError(error: unknown): string {
  // The address policy's own sentence, whether it came straight or as a request's cause.
  if (error instanceof AddressRefusedError) return error.message;
  if (error instanceof Error && error.cause instanceof AddressRefusedError) return error.cause.message;
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = (cause as { code?: unknown } | null)?.code;
  const message = cause instanceof Error ? cause.message : String(cause);
  return typeof code === 'string' ? `${code} (${message})` : message;
}

export function contentTypeOf(file: string): string {
  const type = getMimeType(path.basename(file));
  return type ?? 'application/octet-stream';
}
