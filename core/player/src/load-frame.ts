import { lengthInPage, SeekframeError } from '@seekframe/composition';
import {
  injectRuntime,
  isRuntimeInjected,
  readRootMetadata,
  RUNTIME_MARKER,
  type InjectedConfig,
  type SeekframeRuntime,
} from '@seekframe/runtime';

/** The runtime IIFE, embedded by scripts/bundle.mjs. */
declare const __SEEKFRAME_RUNTIME_SOURCE__: string;

export interface LoadedFrame {
  iframe: HTMLIFrameElement;
  runtime: SeekframeRuntime;
  width: number;
  height: number;
  duration: number;
}

type RuntimeWindow = Window & { __seekframe?: SeekframeRuntime };

/**
 * Loads a composition into a new same-origin iframe appended to `container` and waits
 * for its runtime to be ready. A page a Seekframe server already injected (`seekframe preview`,
 * the project server in mode 'preview') is loaded by URL, so child documents get the runtime too;
 * any other page is fetched and injected here, then shown through `srcdoc` with a `<base href>`.
 */
export async function loadFrame(
  container: HTMLElement,
  src: string,
  variables: Record<string, unknown> | undefined,
  signal: AbortSignal,
): Promise<LoadedFrame> {
  const url = new URL(src, document.baseURI).href;
  const html = await fetchHtml(url, signal);
  const meta = readRootMetadata(new DOMParser().parseFromString(html, 'text/html'));
  // A root without data-duration lasts as long as the timeline the page registers, else until its
  // animations end (read once ready).
  const inPage = lengthInPage(html);
  const duration = meta.duration ?? (inPage === 'timeline' || inPage === 'animations' ? 0 : undefined);
  if (!meta.width || !meta.height || duration === undefined) {
    throw new SeekframeError(
      'invalid-composition',
      `${url} has no composition root with data-width, data-height and data-duration (or a registered timeline); point <seekframe-player src> at a composition's HTML file (run \`seekframe lint\` on it)`,
      { stage: 'load', details: { src: url } },
    );
  }
  const iframe = document.createElement('iframe');
  // No sandbox: with allow-scripts and allow-same-origin (which the runtime needs) a frame can lift
  // its own sandbox, so it was no boundary, and Chromium warned about it on every load.
  // A Play click in the host page may then start the frame's audio (autoplay policy).
  iframe.setAttribute('allow', 'autoplay');
  iframe.title = meta.id ?? 'composition';
  Object.assign(iframe.style, { width: `${meta.width}px`, height: `${meta.height}px` });
  // Read by the runtime from window.frameElement (readFrameSetting in @seekframe/runtime).
  iframe.__seekframePlayer = variables ? { variables } : {};
  if (isRuntimeInjected(html)) iframe.src = url;
  else iframe.srcdoc = injectHere(html, url, { width: meta.width, height: meta.height, duration, id: meta.id, fps: meta.fps });
  const loaded = new Promise<void>((resolve, reject) => {
    iframe.addEventListener('load', () => resolve(), { once: true });
    signal.addEventListener('abort', () => reject(cancelled()), { once: true });
  });
  container.append(iframe);
  try {
    await loaded;
    const runtime = (iframe.contentWindow as RuntimeWindow | null)?.__seekframe;
    if (!runtime) {
      throw new SeekframeError(
        'runtime-missing',
        `${url} loaded without the Seekframe runtime (window.__seekframe); serve it with \`seekframe preview\` or from the same origin as the page`,
        {
          stage: 'load',
        },
      );
    }
    await runtime.ready.catch((error: unknown) => {
      throw new SeekframeError('ready-failed', `${url} did not become ready: ${error instanceof Error ? error.message : String(error)}`, {
        stage: 'load',
      });
    });
    return { iframe, runtime, width: runtime.width, height: runtime.height, duration: runtime.duration };
  } catch (error) {
    iframe.remove();
    throw error;
  }
}

async function fetchHtml(url: string, signal: AbortSignal): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url, { cache: 'no-store', signal });
  } catch (error) {
    if (signal.aborted) throw cancelled();
    throw new SeekframeError(
      'player-load-failed',
      `<seekframe-player> could not fetch ${url} (${String(error)}); check src and that it is served from this page's origin`,
      {
        stage: 'load',
        details: { src: url },
      },
    );
  }
  if (!response.ok) {
    throw new SeekframeError('player-load-failed', `<seekframe-player> got HTTP ${response.status} for ${url}; check the src attribute`, {
      stage: 'load',
      details: { src: url, status: response.status },
    });
  }
  return response.text();
}

function injectHere(
  html: string,
  url: string,
  meta: { id: string | undefined; width: number; height: number; duration: number; fps: number | undefined },
): string {
  const config: InjectedConfig = {
    mode: 'preview',
    composition: {
      id: meta.id ?? 'main',
      width: meta.width,
      height: meta.height,
      duration: meta.duration,
      ...(meta.fps ? { fps: meta.fps } : {}),
    },
  };
  const injected = injectRuntime(html, config, __SEEKFRAME_RUNTIME_SOURCE__);
  // srcdoc documents resolve relative URLs against the player's page; the base points them home.
  const base = `<base href="${url.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}">`;
  const at = injected.indexOf(RUNTIME_MARKER);
  return injected.slice(0, at) + base + injected.slice(at);
}

function cancelled(): SeekframeError {
  return new SeekframeError('load-superseded', 'loading was replaced by a newer load', { stage: 'load' });
}
