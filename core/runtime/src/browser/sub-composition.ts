import { SeekframeError } from '@seekframe/composition';
import type { MediaClip, VideoFrameMap } from '../runtime-types.js';
import { numberAttribute } from './composition-root.js';
import type { ChildRuntime, InstanceInfo } from './instance-info.js';
import { hashString } from './seeded-random.js';

export interface ParentContext {
  mode: 'render' | 'preview';
  seed: number;
  fps: number;
  epochMs: number;
}

/**
 * One `[data-composition-src]` host: its content is replaced by a same-origin iframe, which gives
 * the instance its own DOM, CSS, globals and timeline for free (the same file embedded twice runs
 * twice, each `document.querySelector` seeing only its own copy).
 */
export class SubComposition {
  readonly id: string;
  readonly src: string;
  readonly iframe: HTMLIFrameElement;
  readonly ready: Promise<ChildRuntime>;
  runtime: ChildRuntime | undefined;
  private lastSeek: number | undefined;

  constructor(
    readonly host: HTMLElement,
    index: number,
    parent: ParentContext,
  ) {
    const doc = host.ownerDocument;
    const rawSrc = host.getAttribute('data-composition-src') ?? '';
    this.src = new URL(rawSrc, doc.baseURI).href;
    this.id = host.getAttribute('data-composition-id') || `${rawSrc}#${index}`;
    let hostValues: Record<string, unknown> | undefined;
    let valuesError: SeekframeError | undefined;
    const rawValues = host.getAttribute('data-variable-values');
    if (rawValues) {
      try {
        const parsed: unknown = JSON.parse(rawValues);
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not a JSON object');
        hostValues = parsed as Record<string, unknown>;
      } catch (error) {
        valuesError = new SeekframeError(
          'invalid-variable-values',
          `data-variable-values on sub-composition "${this.id}" (${rawSrc}) is not a JSON object (${error instanceof Error ? error.message : String(error)}); write it like {"title":"Hi"}`,
          { stage: 'variables' },
        );
      }
    }
    this.iframe = doc.createElement('iframe');
    let attach!: (runtime: ChildRuntime) => void;
    const attached = new Promise<ChildRuntime>((resolve) => {
      attach = resolve;
    });
    const info: InstanceInfo = {
      id: this.id,
      src: this.src,
      hostValues,
      mode: parent.mode,
      seed: (parent.seed ^ hashString(this.id)) >>> 0,
      fps: parent.fps,
      epochMs: parent.epochMs,
      hostDuration: numberAttribute(host, 'data-duration'),
      inheritScripts: headLibraries(doc),
      attach: (runtime) => {
        this.runtime = runtime;
        attach(runtime);
      },
    };
    this.iframe.__seekframeInstance = info;
    this.iframe.setAttribute('scrolling', 'no');
    this.iframe.setAttribute('title', this.id);
    Object.assign(this.iframe.style, {
      position: 'absolute',
      inset: '0',
      width: '100%',
      height: '100%',
      border: '0',
      margin: '0',
      padding: '0',
      display: 'block',
      background: 'transparent',
      colorScheme: 'normal',
    });
    if (getComputedStyle(host).position === 'static') host.style.position = 'relative';
    // As in HyperFrames, a host whose CSS sets no width (height) takes its data-width
    // (data-height), before the child loads: a child root without a size fills this box.
    for (const [attr, property] of [
      ['data-width', 'width'],
      ['data-height', 'height'],
    ] as const) {
      const size = numberAttribute(host, attr);
      if (size !== undefined && size > 0 && cssSizeIsAuto(host, property)) host.style[property] = `${size}px`;
    }
    const loaded = new Promise<void>((resolve) => this.iframe.addEventListener('load', () => resolve(), { once: true }));
    this.iframe.src = this.src;
    host.replaceChildren(this.iframe);
    this.ready = (async () => {
      if (valuesError) throw valuesError;
      const runtime = await Promise.race([
        attached,
        loaded.then(async () => {
          // The child's runtime attaches synchronously while its <head> parses, long before load.
          if (this.runtime) return this.runtime;
          throw new SeekframeError(
            'runtime-missing',
            `Sub-composition "${this.id}" (${this.src}) loaded without the Seekframe runtime; serve the project through Seekframe (it injects the runtime into every HTML file) and check that the file exists`,
            { stage: 'load' },
          );
        }),
      ]);
      await runtime.ready;
      // As in HyperFrames, a host still without a size takes the child root's dimensions (per
      // axis: a block host in flow has its parent's width but no height).
      if (host.offsetWidth === 0) host.style.width = `${runtime.width}px`;
      if (host.offsetHeight === 0) host.style.height = `${runtime.height}px`;
      return runtime;
    })();
  }

  get duration(): number | undefined {
    return numberAttribute(this.host, 'data-duration') ?? this.runtime?.duration;
  }

  /** Seeks the child to its local time; a child outside its window is parked (once) at the edge. */
  async seek(local: number, active: boolean): Promise<void> {
    const runtime = this.runtime;
    if (!runtime) return;
    const clamped = Math.min(Math.max(0, local), runtime.duration);
    if (!active && this.lastSeek === clamped) return;
    this.lastSeek = clamped;
    await runtime.seek(clamped);
  }

  async mediaClips(hostStart: number, hostEnd: number): Promise<MediaClip[]> {
    const runtime = this.runtime;
    if (!runtime) return [];
    const clips = await runtime.mediaClips();
    const out: MediaClip[] = [];
    for (const clip of clips) {
      const start = clip.start + hostStart;
      const end = Math.min(start + clip.duration, hostEnd);
      if (end <= start) continue;
      out.push({ ...clip, start, duration: end - start });
    }
    return out;
  }

  useVideoFrames(map: VideoFrameMap): Promise<void> {
    return this.runtime ? this.runtime.useVideoFrames(map) : Promise.resolve();
  }
}

/** Classic external scripts of the host's `<head>`, including those it inherited itself. */
function headLibraries(doc: Document): string[] {
  const out: string[] = [];
  for (const script of doc.head?.querySelectorAll<HTMLScriptElement>('script[src]') ?? []) {
    const type = (script.getAttribute('type') ?? '').trim().toLowerCase();
    if (type !== '' && type !== 'text/javascript' && type !== 'application/javascript') continue;
    if (script.src && !out.includes(script.src)) out.push(script.src);
  }
  return out;
}

/** True when no CSS sets the element's width (height): its computed value is `auto`, whatever its used size. */
function cssSizeIsAuto(element: HTMLElement, property: 'width' | 'height'): boolean {
  return element.computedStyleMap().get(property)?.toString() === 'auto';
}
