import { z } from 'zod';
import { analyseFrameCosts } from './frame-hotspots.js';
import { REPORT_STAGES, type RenderProfile } from './render-profile.js';

const ChoiceSchema = <T extends z.ZodType>(value: T) =>
  z.object({
    value: value.describe('What was used.'),
    requested: z.string().describe('What was asked for (`auto`, a number, a mode).'),
    reason: z.string().describe('Why this value, in one sentence.'),
  });

const ElementFields = {
  clip: z.string().describe('The clip as messages name it, e.g. `<div#blur>` (`[intro] <h1>` inside a sub-composition).'),
  selector: z.string().describe('A CSS selector that finds it in its own document.'),
  hosts: z.array(z.string()).describe('Selectors of the sub-composition hosts above it, from the top; empty at top level.'),
};

/**
 * Where a render's time went: the `report` of the final `complete` event (`render --json`, the
 * server's stream) and the file `render --report <file>` writes (also after a failure). Stable:
 * fields are only ever added. docs/reference/json-output.md is generated from this schema.
 */
export const RenderReportSchema = z
  .object({
    version: z.literal(1).describe('Shape version; fields are only added within a version.'),
    status: z.enum(['completed', 'failed', 'cancelled']).describe('How the render ended.'),
    durationMs: z.number().describe('Wall time from the start of the render to its end.'),
    stages: z
      .array(
        z.object({
          stage: z
            .enum(REPORT_STAGES)
            .describe(
              '`lint`; `load` (read the composition, check variables); `browser` (project server and browser start); `page` (the page loads: scripts, fonts, images, sub-compositions); ' +
                '`media` (probe media, extract video frames); `audio` (mix the soundtrack); `capture` (seek and capture every frame, streamed into ffmpeg); ' +
                '`encode` (ffmpeg finishes after the last frame, muxes audio, the file is published); `verify` (the alpha check of mov, webm and png-sequence output).',
            ),
          ms: z.number().describe('Wall time spent in the stage.'),
        }),
      )
      .describe(
        'Stages in pipeline order, each a span of wall time; they do not overlap, so they add up to `durationMs`. A stage the render never reached is absent.',
      ),
    frames: z
      .object({
        total: z.number().describe('Frames of the render.'),
        captured: z.number().describe('Frames captured (fewer than `total` only under a frame limit of the benchmark).'),
        reused: z
          .number()
          .describe(
            'beginframe and canvas: frames Chromium reported unchanged (no damage, no repaint), reused without a new screenshot or draw.',
          ),
        meanMs: z.number().describe('Mean capture cost of a frame (seek to encoded image, in its worker).'),
        medianMs: z.number().describe('Median capture cost of a frame.'),
        p90Ms: z.number().describe('90th percentile of the capture cost.'),
        maxMs: z.number().describe('The most expensive frame.'),
        encoderWaitMs: z
          .number()
          .describe('Time the capture waited for ffmpeg to take frames (its pipe was full): high means the encoder is the bottleneck.'),
      })
      .nullable()
      .describe('Capture costs; null when the render stopped before capturing.'),
    slowestFrames: z
      .array(
        z.object({
          frame: z.number().describe('0-based frame index.'),
          time: z.number().describe('Seconds.'),
          ms: z
            .number()
            .describe(
              "Capture cost of the frame: the capturing browser's CPU milliseconds where they can be read (Linux), else its wall time.",
            ),
          clips: z.array(z.string()).describe('The clips on screen in it.'),
        }),
      )
      .describe(
        "The five most expensive frames, costliest first, by the capturing browser's CPU time where it can be read (Linux): what the page costs, whatever else runs on the machine.",
      ),
    hotspots: z
      .array(
        z.object({
          ...ElementFields,
          firstFrame: z.number().describe('First frame with the clip on screen (0-based).'),
          lastFrame: z.number().describe('Last frame with the clip on screen.'),
          start: z.number().describe('Seconds the clip starts.'),
          end: z.number().describe('Seconds the clip ends.'),
          medianMs: z.number().describe('Median cost of a frame with the clip on screen (the same measure as `slowestFrames[].ms`).'),
          otherMedianMs: z.number().describe('Median cost of the other frames.'),
          ratio: z.number().describe('medianMs / otherMedianMs (at least 2).'),
          extraMs: z
            .number()
            .describe('Capture time above the other frames, summed over the clip (at least 250 ms and 10% of all capture time).'),
          share: z.number().describe('extraMs as a share of all capture time, 0-1.'),
        }),
      )
      .describe(
        'Clips that made the render slow, at most three. One that cost at least 1 s of capture also becomes a `slow-clip` warning event.',
      ),
    workers: ChoiceSchema(z.number()).nullable().describe('Browser processes that captured, and why that many.'),
    captureMode: ChoiceSchema(z.enum(['canvas', 'beginframe', 'screenshot']))
      .nullable()
      .describe('How frames were captured, and why.'),
    warnings: z
      .array(
        z.object({
          code: z.string().describe('The warning code, e.g. `alpha-flattened`, `sub-composition-empty`, `lint/<rule>`.'),
          message: z.string().describe('What happened and the fix, as the CLI prints it.'),
        }),
      )
      .optional()
      .describe('The warning events of the render, in order (the same as the `warning` lines of `--json` and of stderr).'),
    length: z
      .object({
        seconds: z.number().describe('Length of the video (frames / fps).'),
        source: z
          .enum(['data-duration', 'timeline', 'animations'])
          .describe(
            "Where it came from: the root's `data-duration`; or, a root without one, the length of the timeline the composition registers in `window.__timelines`, else where its last CSS animation or Web Animation ends, read in the page.",
          ),
        note: z.string().describe('The same in a sentence, as `seekframe render` prints it.'),
      })
      .nullable()
      .optional()
      .describe('How long the video is and where that came from; null when the render stopped before the page was read.'),
  })
  .describe('Where the time of one render went.');

export type RenderReport = z.infer<typeof RenderReportSchema>;

export interface ReportFacts {
  status: RenderReport['status'];
  /** Frames of the whole render (the plan's), when known. */
  totalFrames?: number;
}

/** The report of a profile: stops its clock first, so call it once the render settled. */
export function buildRenderReport(profile: RenderProfile, facts: ReportFacts): RenderReport {
  profile.stop();
  const capture = profile.capture;
  const analysis =
    capture && profile.fps && capture.frameMs.length > 0
      ? analyseFrameCosts({ frameMs: capture.frameMs, firstFrame: capture.firstFrame, fps: profile.fps, clips: profile.clips })
      : undefined;
  // Which frames and clips cost the most: by the browser's CPU where it was read, else by wall time.
  const costs =
    capture?.frameCpuMs && profile.fps && capture.frameCpuMs.length > 0
      ? analyseFrameCosts({ frameMs: capture.frameCpuMs, firstFrame: capture.firstFrame, fps: profile.fps, clips: profile.clips })
      : analysis;
  return {
    version: 1,
    status: facts.status,
    durationMs: round(profile.elapsedMs()),
    stages: profile.stages().map(({ stage, ms }) => ({ stage, ms: round(ms) })),
    frames:
      capture && analysis
        ? {
            total: facts.totalFrames ?? capture.frameMs.length,
            captured: Array.from(capture.frameMs).filter((ms) => ms > 0).length,
            reused: capture.reusedFrames,
            meanMs: analysis.meanMs,
            medianMs: analysis.medianMs,
            p90Ms: analysis.p90Ms,
            maxMs: analysis.maxMs,
            encoderWaitMs: round(capture.encoderWaitMs),
          }
        : null,
    slowestFrames: costs?.slowest ?? [],
    hotspots: costs?.hotspots ?? [],
    workers: profile.workers ?? null,
    captureMode: profile.captureMode ?? null,
    length: profile.length ?? null,
    warnings: [...profile.warnings],
  };
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
