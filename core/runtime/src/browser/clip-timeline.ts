import { resolveTiming, SeekframeError, type TimingItem } from '@seekframe/composition';
import { findCompositionRoot, numberAttribute } from './composition-root.js';

export type ClipKind = 'video' | 'audio' | 'composition' | 'element';

/**
 * Where a clip's length came from: its `data-duration`, the media source's measured length, a
 * sub-composition's own length (its file's root or registered timeline), or none (it runs to the
 * composition's end).
 */
export type ClipLengthSource = 'attribute' | 'media' | 'composition' | 'open';

export interface Clip {
  el: HTMLElement;
  kind: ClipKind;
  id: string | undefined;
  start: number;
  /** Exclusive end; the composition's end when the clip has no duration. */
  end: number;
  mediaStart: number;
  trackIndex: number | undefined;
  lengthFrom: ClipLengthSource;
}

/** Attribute the visibility stylesheet keys on; see `installClipStyles` for why not display:none. */
export const HIDDEN_ATTRIBUTE = 'data-seekframe-hidden';
/** Set by the preview studio on the clips of a track it hides; only a preview sets it. */
export const STUDIO_HIDDEN_ATTRIBUTE = 'data-seekframe-studio-hidden';

/**
 * Clips are hidden with `visibility: hidden !important` from a stylesheet rule rather than
 * `display: none` or inline styles: layout stays put (no siblings jumping, GSAP can still
 * measure), running CSS animations are not restarted, and an author's or GSAP's own inline
 * `visibility`/`opacity` is left untouched and applies again when the clip is shown. The `*` rule
 * stops descendants that set `visibility: visible` from leaking out of a hidden clip.
 */
export function installClipStyles(doc: Document): void {
  const style = doc.createElement('style');
  style.setAttribute('data-seekframe', 'runtime');
  style.textContent =
    `[${HIDDEN_ATTRIBUTE}],[${HIDDEN_ATTRIBUTE}] *{visibility:hidden!important}` +
    `[data-seekframe-covered]{visibility:hidden!important}` +
    // The preview studio's "hide track" (never set in a render).
    `[${STUDIO_HIDDEN_ATTRIBUTE}],[${STUDIO_HIDDEN_ATTRIBUTE}] *{visibility:hidden!important}` +
    // Subpixel glyph positions everywhere: with text-rendering auto, chrome-headless-shell places
    // glyphs on whole pixels and full Chromium does not, so the same text rendered differently by
    // browser (38.8 dB PSNR on large type; identical with this rule), and HyperFrames sets the
    // same. On the root with no specificity: inherited, and any rule of the author's wins.
    ':where(:root){text-rendering:geometricPrecision}';
  (doc.head ?? doc.documentElement).appendChild(style);
}

const CLIP_SELECTOR = '[data-start],.clip,video,audio,[data-composition-src],[data-composition-id]';

function kindOf(el: Element): ClipKind {
  if (el instanceof HTMLVideoElement) return 'video';
  if (el instanceof HTMLAudioElement) return 'audio';
  if (el.hasAttribute('data-composition-src') || el.hasAttribute('data-composition-id')) return 'composition';
  return 'element';
}

interface ClipTimingItem extends TimingItem {
  el: HTMLElement;
  kind: ClipKind;
  mediaStart: number;
  lengthFrom: ClipLengthSource;
}

/**
 * Reads every clip from the live DOM (after author scripts ran) and resolves start-after-id
 * references with the composition package's resolver. `durationOf` supplies lengths the DOM does
 * not state: a media element's natural length, a sub-composition's own duration.
 */
export function resolveClips(
  doc: Document,
  compositionDuration: number,
  durationOf: (el: HTMLElement, kind: ClipKind) => number | undefined,
): Clip[] {
  const root = findCompositionRoot(doc);
  const items: ClipTimingItem[] = [];
  for (const el of doc.querySelectorAll<HTMLElement>(CLIP_SELECTOR)) {
    if (el === root || el.hasAttribute('data-seekframe-overlay')) continue;
    const kind = kindOf(el);
    // An inline composition element without timing is a grouping, not a clip.
    if (kind === 'composition' && !el.hasAttribute('data-composition-src') && !el.hasAttribute('data-start')) continue;
    const mediaStart = numberAttribute(el, 'data-media-start') ?? 0;
    let duration = numberAttribute(el, 'data-duration');
    let lengthFrom: ClipLengthSource = 'attribute';
    if (duration === undefined) {
      duration = durationOf(el, kind);
      lengthFrom = duration === undefined ? 'open' : kind === 'composition' ? 'composition' : 'media';
    }
    items.push({
      el,
      kind,
      mediaStart,
      lengthFrom,
      id: el.getAttribute('data-composition-id') || el.id || undefined,
      start: el.getAttribute('data-start') ?? '0',
      duration,
      trackIndex: numberAttribute(el, 'data-track-index'),
    });
  }
  const result = resolveTiming(items, { describe: (item) => describeElement(item.el) });
  const errors = result.findings.filter((f) => f.severity === 'error' && f.rule !== 'timing/missing-duration');
  if (errors.length > 0) {
    throw new SeekframeError('invalid-timing', `Clip timing in ${doc.location.href}: ${errors.map((f) => f.message).join('; ')}`, {
      stage: 'load',
    });
  }
  const missing = result.findings.find((f) => f.rule === 'timing/missing-duration');
  if (missing) throw new SeekframeError('invalid-timing', `Clip timing in ${doc.location.href}: ${missing.message}`, { stage: 'load' });
  return result.items.map((r) => ({
    el: r.item.el,
    kind: r.item.kind,
    id: r.item.id,
    start: r.start ?? 0,
    end: r.end ?? compositionDuration,
    mediaStart: r.item.mediaStart,
    trackIndex: r.item.trackIndex,
    lengthFrom: r.item.lengthFrom,
  }));
}

export function describeElement(el: Element): string {
  const tag = el.tagName.toLowerCase();
  if (el.id) return `<${tag}#${el.id}>`;
  const src = el.getAttribute('src') ?? el.getAttribute('data-composition-src');
  return src ? `<${tag} src="${src}">` : `<${tag}>`;
}

export function isActive(clip: Clip, t: number): boolean {
  return t >= clip.start && t < clip.end;
}

export function applyVisibility(clips: readonly Clip[], t: number): void {
  for (const clip of clips) {
    if (isActive(clip, t)) clip.el.removeAttribute(HIDDEN_ATTRIBUTE);
    else clip.el.setAttribute(HIDDEN_ATTRIBUTE, '');
  }
}
