import type { SeekframeRuntime } from '../runtime-types.js';

/**
 * A plain page shown in an `<iframe>` of the composition (not a sub-composition): an animated
 * widget with its own requestAnimationFrame loop. The project server injects the runtime into it
 * as an embedded page (`config.embedded`), so its rAF, timers and Date are virtual; this drives
 * them from the embedding composition's seeks, at the time local to the iframe's clip, which makes
 * its motion frame-exact in render and preview alike.
 */
export class EmbeddedFrame {
  private lastSeek: number | undefined;

  constructor(
    readonly iframe: HTMLIFrameElement,
    readonly runtime: SeekframeRuntime,
  ) {}

  /** The iframe's page runtime, or why it has none (cross-origin, not HTML, not served by Seekframe). */
  static attach(iframe: HTMLIFrameElement): EmbeddedFrame | string {
    let runtime: SeekframeRuntime | undefined;
    try {
      runtime = (iframe.contentWindow as (Window & { __seekframe?: SeekframeRuntime }) | null)?.__seekframe;
    } catch {
      return 'it is cross-origin, so its clock cannot follow the composition';
    }
    if (runtime) return new EmbeddedFrame(iframe, runtime);
    const doc = iframe.contentDocument;
    if (!doc || doc.location.href === 'about:blank') return 'it shows no page (no src, or the page did not load)';
    if (!doc.documentElement || doc.contentType !== 'text/html') return `it shows ${doc.contentType}, not an HTML page`;
    return 'its page has no Seekframe runtime (serve the project through Seekframe, which injects it into every HTML page)';
  }

  get src(): string {
    return this.iframe.getAttribute('src') ?? this.iframe.src;
  }

  /** Seeks the page to `local` seconds; outside its clip it is parked (once) at the edge. */
  async seek(local: number, end: number, active: boolean): Promise<void> {
    const clamped = Math.min(Math.max(0, local), Math.max(0, end));
    if (!active && this.lastSeek === clamped) return;
    this.lastSeek = clamped;
    await this.runtime.seek(clamped);
  }
}
