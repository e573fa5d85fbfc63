import type { CaptureMode } from '@seekframe/engine';

/** One combination of speed settings the benchmark renders. */
export interface BenchmarkSettings {
  captureMode: CaptureMode;
  workers: number;
  /** Each worker's browser pinned to its own CPU (applies with 2+ workers). */
  pinWorkers: boolean;
  /** Frame transport from Chromium to ffmpeg: JPEG (at jpegQuality) or lossless PNG. */
  frameFormat: 'jpeg' | 'png';
  jpegQuality: number;
  /** ffmpeg -threads; 0 = ffmpeg's own choice. */
  encoderThreads: number;
}

export interface BenchmarkVariant {
  /** What differs from the reference, e.g. `workers 2`; `reference` for the reference itself. */
  label: string;
  settings: BenchmarkSettings;
}

/** The defaults of `seekframe render` with this browser (its auto capture mode): the output every other variant must match. */
export function referenceSettings(captureMode: CaptureMode): BenchmarkSettings {
  return { captureMode, workers: 1, pinWorkers: true, frameFormat: 'jpeg', jpegQuality: 90, encoderThreads: 0 };
}

/**
 * One setting changed at a time from the reference: each other capture mode the browser has, 2..N
 * workers (N = cores, at most 4: each is a browser of ~256 MB and they share the cores with
 * ffmpeg), the most workers without pinning them to CPUs, pinned x264 threads, and, where the
 * reference's frames are JPEG screenshots, the frame transport (lossless PNG) and lower JPEG
 * quality (cheaper to encode in Chromium and to decode in ffmpeg). Canvas capture sends raw pixels,
 * so the JPEG settings would change nothing there and are not rendered.
 * `captureModes`: the modes this browser can use, the render's default first.
 */
export function benchmarkVariants(input: { cores: number; captureModes: readonly CaptureMode[] }): BenchmarkVariant[] {
  const [defaultMode, ...otherModes] = input.captureModes;
  if (!defaultMode) throw new Error('benchmarkVariants needs at least one capture mode');
  const reference = referenceSettings(defaultMode);
  const variants: BenchmarkVariant[] = [{ label: 'reference', settings: reference }];
  for (const captureMode of otherModes) variants.push({ label: `capture ${captureMode}`, settings: { ...reference, captureMode } });
  for (let workers = 2; workers <= Math.min(4, Math.max(2, input.cores)); workers++) {
    variants.push({ label: `workers ${workers}`, settings: { ...reference, workers } });
  }
  const most = Math.min(4, Math.max(2, input.cores));
  variants.push({ label: `workers ${most} unpinned`, settings: { ...reference, workers: most, pinWorkers: false } });
  if (defaultMode !== 'canvas') {
    variants.push({ label: 'frames png', settings: { ...reference, frameFormat: 'png' } });
    for (const jpegQuality of [80, 70]) variants.push({ label: `jpeg ${jpegQuality}`, settings: { ...reference, jpegQuality } });
  }
  variants.push({ label: `x264 threads ${input.cores}`, settings: { ...reference, encoderThreads: input.cores } });
  return variants;
}

/** The best value of each setting among matching variants, as one combined candidate. */
export function combineBest(reference: BenchmarkSettings, winners: BenchmarkSettings[]): BenchmarkSettings {
  const combined = { ...reference };
  for (const w of winners) {
    if (w.captureMode !== reference.captureMode) combined.captureMode = w.captureMode;
    if (w.workers !== reference.workers) combined.workers = w.workers;
    if (w.pinWorkers !== reference.pinWorkers) combined.pinWorkers = w.pinWorkers;
    if (w.frameFormat !== reference.frameFormat) combined.frameFormat = w.frameFormat;
    if (w.jpegQuality !== reference.jpegQuality) combined.jpegQuality = w.jpegQuality;
    if (w.encoderThreads !== reference.encoderThreads) combined.encoderThreads = w.encoderThreads;
  }
  return combined;
}

export function describeSettings(s: BenchmarkSettings): string {
  return `--capture-mode ${s.captureMode}, ${s.workers} worker${s.workers === 1 ? '' : 's'}${s.workers > 1 && !s.pinWorkers ? ' (not pinned)' : ''}, ${s.frameFormat === 'png' ? 'PNG frames' : `JPEG ${s.jpegQuality}`}, x264 threads ${s.encoderThreads || 'auto'}`;
}
