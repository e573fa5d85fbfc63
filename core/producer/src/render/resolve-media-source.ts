import { stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SeekframeError } from '@seekframe/composition';
import type { ProjectServer } from '../serve/project-server.js';
import { inside, insideLexically } from '../serve/inside.js';
import { REMOTE_ROUTE } from '../serve/rewrite-remote-references.js';
import { AddressRefusedError } from '../network/private-address.js';

export interface MediaSourceContext {
  server: ProjectServer;
  /** The project folder. */
  root: string;
  /** The render's own temp folder: downloads and decoded data: URLs land here. */
  workDir: string;
  /**
   * A page from a request (server renders): project files only by real path inside the project,
   * remote media only through the address-checked fetch, no `file:` URLs.
   */
  sandboxed: boolean;
}

/**
 * Turns the `src` a page gave a `<video>`/`<audio>` into the local file ffmpeg reads. ffmpeg
 * never sees a URL: it reads with the file protocol only (see the engine's ffmpeg-inputs), so
 * every way to reach the network or another file goes through here, where it is checked.
 * - a file of the project (served by the project server): its path; in sandboxed renders its
 *   real path, which must stay inside the project (a symlink out of it is refused);
 * - a remote http(s) source (rewritten to the remote route, or set by a script): downloaded into
 *   the work folder by the project server's fetch, the same one (and in sandboxed renders the
 *   same public-address check) the page's other remote assets go through;
 * - `data:`: decoded into the work folder;
 * - `file:`: read as is in trusted (CLI) renders only;
 * - anything else (`concat:`, `subfile:`, `tcp:`, `blob:`...): refused.
 */
export function createMediaSourceResolver(context: MediaSourceContext): (src: string, kind: 'video' | 'audio') => Promise<string> {
  const resolved = new Map<string, Promise<string>>();
  let downloads = 0;
  const nextDownload = (extension: string): string => path.join(context.workDir, `media-source-${++downloads}${extension}`);
  return (src, kind) => {
    let file = resolved.get(src);
    if (!file) resolved.set(src, (file = resolveSource(src, kind, context, nextDownload)));
    return file;
  };
}

async function resolveSource(
  src: string,
  kind: 'video' | 'audio',
  context: MediaSourceContext,
  nextDownload: (extension: string) => string,
): Promise<string> {
  const shown = displaySource(src, context.server.origin);
  const refuse = (why: string, cause?: unknown): SeekframeError => mediaSourceRefused(kind, shown, why, context.sandboxed, cause);
  let url: URL;
  try {
    url = new URL(src);
  } catch {
    throw refuse('it is not a URL the page could load');
  }
  if (url.origin === context.server.origin) {
    if (url.pathname === REMOTE_ROUTE) {
      const remote = url.searchParams.get('url');
      if (!remote) throw refuse('the remote route was given no url');
      return download(remote, kind, context, nextDownload, shown);
    }
    if (url.pathname.startsWith('/__seekframe/')) throw refuse("it names one of the renderer's own routes, not a file of the project");
    return projectFile(url, context, refuse);
  }
  switch (url.protocol) {
    case 'http:':
    case 'https:':
      return download(url.href, kind, context, nextDownload, shown);
    case 'data:':
      return decodeDataUrl(url.href, nextDownload, refuse);
    case 'file:':
      if (context.sandboxed) throw refuse("file: URLs would read the server's own files");
      return fileURLToPath(url);
    default:
      throw refuse(`${url.protocol} sources are not media files ffmpeg may open`);
  }
}

async function projectFile(
  url: URL,
  context: MediaSourceContext,
  refuse: (why: string, cause?: unknown) => SeekframeError,
): Promise<string> {
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch (error) {
    throw refuse('its path is not valid percent-encoding', error);
  }
  const root = path.resolve(context.root);
  const file = insideLexically(root, `.${pathname}`);
  if (file === null) throw refuse('it points outside the project folder');
  if (!context.sandboxed) return file;
  // The project server answered the page from this path; ffmpeg must read the same bytes, and
  // a symlink inside the project must not lead it to a file elsewhere on the machine (checked
  // before existence, so a missing file behind a symlink out is refused like an existing one).
  const real = await inside(root, file);
  if (real === null) throw refuse('it leads outside the project folder through a symlink');
  if (
    !(await stat(real).then(
      (info) => info.isFile(),
      () => false,
    ))
  ) {
    throw new SeekframeError(
      'asset-not-found',
      `${path.relative(root, file)} does not exist in the project folder; add the file or fix the src.`,
      {
        stage: 'media',
        details: { file: path.relative(root, file) },
      },
    );
  }
  return real;
}

async function download(
  remote: string,
  kind: 'video' | 'audio',
  context: MediaSourceContext,
  nextDownload: (extension: string) => string,
  shown: string,
): Promise<string> {
  let body: Uint8Array;
  try {
    // The project server's fetch: npm CDN files from installed packages, the time limit, and in
    // sandboxed renders the public-address check on every hop (it records failures as problems).
    ({ body } = await context.server.fetchRemote(remote));
  } catch (error) {
    const cause = error instanceof Error ? error.cause : undefined;
    const refusal =
      cause instanceof AddressRefusedError
        ? cause
        : cause instanceof Error && cause.cause instanceof AddressRefusedError
          ? cause.cause
          : undefined;
    if (refusal) throw mediaSourceRefused(kind, shown, refusal.message, context.sandboxed, error);
    throw error;
  }
  const file = nextDownload(safeExtension(new URL(remote).pathname));
  await writeFile(file, body);
  return file;
}

async function decodeDataUrl(
  src: string,
  nextDownload: (extension: string) => string,
  refuse: (why: string, cause?: unknown) => SeekframeError,
): Promise<string> {
  let body: Buffer;
  try {
    body = Buffer.from(await (await fetch(src)).arrayBuffer());
  } catch (error) {
    throw refuse('its data: URL could not be decoded', error);
  }
  const file = nextDownload('');
  await writeFile(file, body);
  return file;
}

export function mediaSourceRefused(
  kind: 'video' | 'audio',
  shown: string,
  why: string,
  sandboxed: boolean,
  cause?: unknown,
): SeekframeError {
  const rule = sandboxed
    ? 'In server renders a media source must be a file inside the project folder or a public http(s) URL'
    : 'A media source must be a file of the project, a file: path, or an http(s) URL';
  return new SeekframeError(
    'media-source-refused',
    `The <${kind}> source ${shown} was refused: ${why}. ${rule}; copy the file into the project folder and reference it by a relative path.`,
    { stage: 'media', details: { src: shown }, ...(cause === undefined ? {} : { cause }) },
  );
}

/** The source as the page wrote it: project files relative to the project, remote-route URLs as the original URL. */
export function displaySource(src: string, origin: string): string {
  if (src.startsWith(`${origin}/`)) {
    const url = new URL(src);
    if (url.pathname === REMOTE_ROUTE) return url.searchParams.get('url') ?? src;
    try {
      return decodeURIComponent(url.pathname).replace(/^\//, '');
    } catch {
      return url.pathname.replace(/^\//, '');
    }
  }
  return src.length > 120 ? `${src.slice(0, 100)}…` : src;
}

function safeExtension(pathname: string): string {
  const extension = path.posix.extname(pathname);
  return /^\.[a-z0-9]{1,8}$/i.test(extension) ? extension : '';
}
