import { SeekframeError } from '@seekframe/composition';
import type { FetchedFile } from './composition-files/composition-host.js';
import { fetchPublic } from '../network/fetch-public.js';
import { AddressRefusedError } from '../network/private-address.js';

/**
 * Fetches a remote URL over the network with a time limit and a size cap (the remote route's last
 * resort, after Google Fonts and installed npm packages, see resolveRemote). Any failure is a
 * `remote-asset-failed` error naming the URL, because a missing script or image silently breaks
 * frames.
 */
export async function fetchNetworkAsset(
  url: string,
  options: {
    timeoutMs: number;
    referrer?: string | undefined;
    /** Refuse loopback/private/link-local hosts (checked on every redirect). */
    publicOnly?: boolean;
    /** Largest body accepted, default {@link REMOTE_ASSET_MAX_BYTES}: a page must not fill the server's memory or disk. */
    maxBytes?: number;
    /** Ends the download early (the project server closing): an unanswered request must not hold the process for its whole time limit. */
    signal?: AbortSignal;
  },
): Promise<FetchedFile> {
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
  let body: Buffer;
  try {
    body = await readCapped(response, options.maxBytes ?? REMOTE_ASSET_MAX_BYTES);
  } catch (error) {
    if (error instanceof TooLargeError) throw fail(`it is larger than ${error.maxBytes} bytes, the most a remote asset may be`);
    throw fail(timedOut() ? `the download did not finish within ${options.timeoutMs} ms` : describeFetchError(error), error);
  }
  return { contentType, body, finalUrl: response.url || url };
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

function describeFetchError(error: unknown): string {
  // The address policy's own sentence, whether it came straight or as a request's cause.
  if (error instanceof AddressRefusedError) return error.message;
  if (error instanceof Error && error.cause instanceof AddressRefusedError) return error.cause.message;
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = (cause as { code?: unknown } | null)?.code;
  const message = cause instanceof Error ? cause.message : String(cause);
  return typeof code === 'string' ? `${code} (${message})` : message;
}
