import { execFile } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { findFfmpeg } from '@seekframe/engine';

const run = promisify(execFile);

/**
 * The bounds of the suite's waits, for a busy machine (a 2-core machine running other suites):
 * each names what it waits for when it runs out, and a test's own timeout is the sum of the
 * bounds of what it waits for and more, so a slow step fails with its name, not as a timeout.
 */
/** One request's answer, its body included (the file of a finished render too). */
export const REQUEST_ANSWERS_MS = 30_000;
/** A render of the contract composition (10 frames of 160x90), from its start to its last poll. */
export const RENDER_FINISHES_MS = 240_000;
/** A test that renders once: the render and the requests around it. */
export const RENDER_TEST_MS = RENDER_FINISHES_MS + 4 * REQUEST_ANSWERS_MS;

/** One request against the deployment; the body parsed as JSON when it is JSON. */
export interface Answer {
  status: number;
  headers: Headers;
  json: any;
  bytes: Uint8Array;
  url: string;
}

export async function call(base: string, route: string, init: RequestInit & { token?: string; timeoutMs?: number } = {}): Promise<Answer> {
  const timeoutMs = init.timeoutMs ?? REQUEST_ANSWERS_MS;
  const headers = new Headers(init.headers);
  if (init.token) headers.set('authorization', `Bearer ${init.token}`);
  if (typeof init.body === 'string' && !headers.has('content-type')) headers.set('content-type', 'application/json');
  const url = new URL(route, base);
  const signal = init.signal ?? AbortSignal.timeout(timeoutMs);
  let response: Response;
  let bytes: Uint8Array;
  try {
    response = await fetchOnce(url, { ...init, headers, signal });
    bytes = new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    if (signal.aborted && !init.signal)
      throw new Error(`${init.method ?? 'GET'} ${url.href} got no (whole) answer within ${timeoutMs / 1000} s`);
    throw error;
  }
  let json: unknown;
  if ((response.headers.get('content-type') ?? '').includes('json')) json = JSON.parse(new TextDecoder().decode(bytes));
  return { status: response.status, headers: response.headers, json, bytes, url: response.url };
}

/**
 * A GET with the path sent exactly as written: fetch (the WHATWG URL parser) would fold `..` and
 * `%2e%2e` segments before they reach the server, hiding what an attacker's client sends.
 */
export function rawGet(
  base: string,
  rawPath: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path: rawPath, method: 'GET', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.setTimeout(REQUEST_ANSWERS_MS, () => req.destroy(new Error(`GET ${rawPath} got no answer within ${REQUEST_ANSWERS_MS / 1000} s`)));
    req.end();
  });
}

/** The keys of an object store kept in a folder (files below it, POSIX paths): a target's `storedKeys`. */
export async function folderKeys(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'DELETE']);
const STALE_SOCKET = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

/**
 * fetch, sent again once when an idempotent request died on a reset socket. A server may close a
 * kept-alive connection as it is reused, e.g. after answering 413 before reading a 2 MiB body;
 * Node's fetch then fails the next request on that socket with ECONNRESET before the server saw
 * it. Browsers and HTTP clients resend such requests; a POST is never sent twice.
 */
async function fetchOnce(url: URL, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    if (!IDEMPOTENT.has((init.method ?? 'GET').toUpperCase()) || !code || !STALE_SOCKET.has(code)) throw error;
    return fetch(url, init);
  }
}

export const post = (base: string, body: unknown, headers: Record<string, string> = {}, token?: string): Promise<Answer> =>
  call(base, '/api/render', {
    method: 'POST',
    // A start of a synchronous template answers once the render is stored.
    timeoutMs: RENDER_FINISHES_MS,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers,
    ...(token ? { token } : {}),
  });

/** Polls a status URL (honouring Retry-After, at most 1 s apart here) until it stops answering 202. */
export async function pollUntilDone(
  base: string,
  statusUrl: string,
  options: { token?: string; accept?: string; timeoutMs?: number } = {},
): Promise<{ final: Answer; polls: Answer[] }> {
  const timeoutMs = options.timeoutMs ?? RENDER_FINISHES_MS;
  const deadline = Date.now() + timeoutMs;
  const polls: Answer[] = [];
  for (;;) {
    const answer = await call(base, statusUrl, {
      ...(options.token ? { token: options.token } : {}),
      headers: options.accept ? { accept: options.accept } : {},
    });
    if (answer.status !== 202) return { final: answer, polls };
    polls.push(answer);
    if (Date.now() > deadline)
      throw new Error(
        `${statusUrl} still answers 202 after ${timeoutMs / 1000} s (the render did not finish): ${JSON.stringify(answer.json)}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

export interface VideoFacts {
  codec: string;
  width: number;
  height: number;
  frames: number;
  formatName: string;
}

/** ffprobe on the bytes: the stream a player would see. */
export async function probeVideo(bytes: Uint8Array, ext = 'mp4'): Promise<VideoFacts> {
  const { ffprobe } = await findFfmpeg();
  const dir = await mkdtemp(path.join(tmpdir(), 'render-api-contract-'));
  try {
    const file = path.join(dir, `video.${ext}`);
    await writeFile(file, bytes);
    const { stdout } = await run(ffprobe, [
      '-v',
      'error',
      '-count_frames',
      '-select_streams',
      'v:0',
      '-show_entries',
      'stream=codec_name,width,height,nb_read_frames:format=format_name',
      '-of',
      'json',
      file,
    ]);
    const parsed = JSON.parse(stdout) as {
      streams: { codec_name: string; width: number; height: number; nb_read_frames: string }[];
      format: { format_name: string };
    };
    const stream = parsed.streams[0]!;
    return {
      codec: stream.codec_name,
      width: stream.width,
      height: stream.height,
      frames: Number(stream.nb_read_frames),
      formatName: parsed.format.format_name,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The contract composition's sub-composition colour (fixtures/contract-composition/badge.html paints it from its own runtime). */
export const BADGE_RGB = [0x00, 0xe0, 0xa0] as const;

/**
 * Pixels of the first frame of an image or video (`ext`: png, mp4...) within `tolerance` of `rgb`
 * on every channel, decoded by ffmpeg to RGB (H.264's 4:2:0 colour shifts a few steps).
 */
export async function countColorPixels(
  bytes: Uint8Array,
  ext: string,
  rgb: readonly [number, number, number],
  tolerance = 24,
): Promise<number> {
  const { ffmpeg } = await findFfmpeg();
  const dir = await mkdtemp(path.join(tmpdir(), 'render-api-contract-'));
  try {
    const file = path.join(dir, `frame.${ext}`);
    await writeFile(file, bytes);
    const { stdout } = await run(ffmpeg, ['-v', 'error', '-i', file, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'], {
      encoding: 'buffer',
      maxBuffer: 64 * 1024 * 1024,
    });
    let count = 0;
    for (let i = 0; i + 2 < stdout.length; i += 3) {
      if (
        Math.abs(stdout[i]! - rgb[0]) <= tolerance &&
        Math.abs(stdout[i + 1]! - rgb[1]) <= tolerance &&
        Math.abs(stdout[i + 2]! - rgb[2]) <= tolerance
      )
        count++;
    }
    return count;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A small composition sent as `html` (custom HTML tests). */
export function customHtml(options: { throwInScript?: boolean; probeUrl?: string; fillMemory?: boolean } = {}): string {
  let script = options.throwInScript ? `<script>throw new Error('contract: this page fails on purpose');</script>` : '';
  if (options.fillMemory) {
    // Fills ArrayBuffers while the page loads (it never gets ready first), stopping by itself at 1.5 GB.
    script +=
      '<script>const keep = []; for (let mb = 0; mb < 1536; mb += 64) { const b = new ArrayBuffer(64 * 2 ** 20); new Uint8Array(b).fill(1); keep.push(b); }</script>';
  }
  if (options.probeUrl) {
    // Every way a page reaches out: an image, a fetch, a beacon-like script tag.
    const url = JSON.stringify(options.probeUrl);
    script += `<img src=${url} alt=""><script>fetch(${url}).catch(() => {}); const s = document.createElement('script'); s.src = ${url} + '?s'; document.head.append(s);</script>`;
  }
  return `<!doctype html><html data-composition-id="custom" data-width="96" data-height="64" data-duration="0.5" data-fps="10"
data-composition-variables='[{"id":"label","type":"string","label":"Label","default":"x","maxLength":8}]'>
<head><style>html,body{margin:0;width:96px;height:64px;background:#0a6}</style></head><body><div id="l"></div>${script}
<script>document.getElementById('l').textContent = window.__seekframe.getVariables().label ?? 'x';</script></body></html>`;
}
