import type { CapturePage } from '@seekframe/engine';
import type { ElementRef, FrameProbe, FrameProbeRequest, SeekframeRuntime, TextBlock, TimelineInspection } from '@seekframe/runtime';
import { decodeFrame } from '../render/blank-render.js';
import { measureContrast, type ContrastSample } from './contrast-audit.js';
import { elementKey } from './motion-plan.js';
import { visibleWindow } from './motion-plan.js';

/** Frames the contrast audit captures with the text hidden, at most: one per time that has unmeasured text. */
export const MAX_CONTRAST_CAPTURES = 8;

export interface SampledFrames {
  /** Each captured frame (encoded), by time; the caller decodes them one at a time. */
  frames: Map<number, Buffer>;
  /** What the page said at each time: the targets' painted boxes and values, the text blocks. */
  probes: Map<number, FrameProbe>;
  /** One contrast measurement per text block (the first time it was at rest and measurable). */
  contrast: ContrastSample[];
}

export interface SampleOptions {
  size: { width: number; height: number };
  /** Read text blocks and measure contrast (the first pass; a second pass for late animations does not). */
  audits: boolean;
  /** Called with each frame as it is captured (the snapshot keeps them). */
  onFrame?: (t: number, frame: Buffer) => void | Promise<void>;
}

type ProbePage = Pick<CapturePage, 'seekAndCaptureFrame' | 'evaluate'>;

/**
 * Captures every planned time through the render's own capture page and reads, at the same
 * instant, where the targets paint, what their animated values are and (first pass) where the
 * text is. Text at rest that has not been measured yet is measured for contrast at once: the
 * frame is captured again with every text fill transparent, so the pixels behind the glyphs are
 * the frame's own, images and gradients included.
 */
export async function sampleFrames(
  page: ProbePage,
  times: readonly number[],
  targets: FrameProbeRequest['targets'],
  inspection: TimelineInspection,
  options: SampleOptions,
): Promise<SampledFrames> {
  const frames = new Map<number, Buffer>();
  const probes = new Map<number, FrameProbe>();
  const contrast: ContrastSample[] = [];
  const measured = new Set<string>();
  let hiddenCaptures = 0;
  for (const t of times) {
    const frame = (await page.seekAndCaptureFrame(t)).data;
    frames.set(t, frame);
    await options.onFrame?.(t, frame);
    const request: FrameProbeRequest = { targets, text: options.audits, moving: movingAt(inspection, t) };
    const probe = (await page.evaluate(
      (r: FrameProbeRequest) => (window as unknown as { __seekframe: SeekframeRuntime }).__seekframe.probeFrame(r),
      request,
    )) as FrameProbe;
    probes.set(t, probe);
    if (!options.audits || hiddenCaptures >= MAX_CONTRAST_CAPTURES) continue;
    const fresh = probe.texts.filter((block) => measurable(block, options.size) && !measured.has(elementKey(block)));
    if (fresh.length === 0) continue;
    hiddenCaptures++;
    await page.evaluate(() => (window as unknown as { __seekframe: SeekframeRuntime }).__seekframe.hideText(true));
    let behind: Buffer;
    try {
      behind = (await page.seekAndCaptureFrame(t)).data;
    } finally {
      await page.evaluate(() => (window as unknown as { __seekframe: SeekframeRuntime }).__seekframe.hideText(false));
    }
    const shown = decodeFrame(frame);
    const hidden = decodeFrame(behind);
    if (!shown || !hidden) continue;
    for (const block of fresh) {
      const sample = measureContrast(block, shown, hidden, options.size, t);
      if (!sample) continue;
      measured.add(elementKey(block));
      contrast.push(sample);
    }
  }
  return { frames, probes, contrast };
}

/** Text the contrast audit can read: at rest, seen (not faint, not covered), with one fill colour, inside the frame. */
function measurable(block: TextBlock, size: { width: number; height: number }): boolean {
  if (block.moving || block.covered || block.color === null || block.opacity < 0.1) return false;
  return block.lines.some((line) => line.x < size.width && line.y < size.height && line.x + line.width > 0 && line.y + line.height > 0);
}

/** Targets of the animations running at `t` while their element is on screen: their text is not at rest. */
export function movingAt(inspection: TimelineInspection, t: number): ElementRef[] {
  const out = new Map<string, ElementRef>();
  for (const animation of inspection.animations) {
    if (t < animation.start || t > animation.end) continue;
    const window = visibleWindow(animation, inspection);
    if (t < window.start || t >= window.end) continue;
    out.set(elementKey(animation.target), { selector: animation.target.selector, hosts: animation.target.hosts });
  }
  return [...out.values()];
}
