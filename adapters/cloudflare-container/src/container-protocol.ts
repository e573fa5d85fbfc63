import { z } from 'zod';
import type { SeekframeErrorData } from '@seekframe/composition';
import { RenderBodySchema } from '@seekframe/render-api';

/**
 * What the Worker side (a job's Durable Object) and the render container say to each other.
 * Shared by both ends so neither invents its own copy: the container server (Node) parses the
 * body with this schema; the job parses the NDJSON lines into `ContainerEvent`s.
 * Loads in a Worker and in Node (zod only, no `node:`).
 */

/** The render request after the shared render API validated it (variables, limits, html gate):
 *  the contract's RenderBodySchema, with the variables already an object and the limits added.
 *  Without `webhook`: the job's Durable Object sends the webhook events, never the container. */
export const ContainerRenderBodySchema = RenderBodySchema.omit({ webhook: true }).extend({
  variables: z.record(z.string(), z.unknown()).optional(),
  /** The deployment's render limits (RENDER_MAX_FRAMES...); the container's own env limits cap them. */
  limits: z
    .strictObject({
      maxFrames: z.number().int().positive().optional(),
      maxRenderSeconds: z.number().int().positive().optional(),
      maxPixels: z.number().int().positive().optional(),
      maxMemoryMB: z.number().int().positive().optional(),
    })
    .optional(),
});
export type ContainerRenderBody = z.input<typeof ContainerRenderBodySchema>;
export type OutputFormat = NonNullable<ContainerRenderBody['format']>;

export const OUTPUT_CONTENT_TYPES: Record<OutputFormat, string> = {
  mp4: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
  gif: 'image/gif',
};

/** One NDJSON line of `POST /jobs/:id/render`; the last line is `complete` or `error`. */
export type ContainerEvent =
  | { type: 'stage'; stage: string }
  | { type: 'progress'; stage: string; framesRendered: number; totalFrames: number; percent: number; fps?: number; eta?: number | null }
  | { type: 'warning'; code: string; message: string; details?: Record<string, unknown> }
  | { type: 'complete'; size: number; contentType: string; durationMs: number; videoDuration: number; frames: number }
  | { type: 'error'; error: SeekframeErrorData };

/** Paths on the container server (see apps/cloudflare-container/container/render-server.ts). */
export const containerPaths = {
  health: '/health',
  job: (id: string) => `/jobs/${encodeURIComponent(id)}`,
  render: (id: string) => `/jobs/${encodeURIComponent(id)}/render`,
  output: (id: string) => `/jobs/${encodeURIComponent(id)}/output`,
};
