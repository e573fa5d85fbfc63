import type { RenderLimits } from '../plan/render-limits.js';

/** What a distributed render asks for: the render API body's settings. */
export interface DistributedRequest {
  variables?: Record<string, unknown>;
  format?: 'mp4' | 'webm' | 'mov' | 'gif';
  quality?: 'draft' | 'standard' | 'high';
  fps?: number;
  /** Only these composition frames, both included: the plan's frames, so chunks, the audio mix and assembly count the span's frames. */
  frames?: string | { start: number; end: number };
}

/**
 * The render spec a distributed render asks the core for: the request's settings, the project,
 * beginFrame capture (the same pixels on every machine with the same binaries), one worker per
 * chunk, and the network sandbox: whoever can start a distributed render can make machines
 * render its HTML, so the page reaches only its own project and public assets.
 */
export function distributedSpecInput(request: DistributedRequest, projectDir: string, limits?: RenderLimits): Record<string, unknown> {
  return {
    projectDir,
    format: request.format ?? 'mp4',
    ...(request.quality ? { quality: request.quality } : {}),
    ...(request.fps !== undefined ? { fps: request.fps } : {}),
    ...(request.frames ? { frames: request.frames } : {}),
    variables: request.variables ?? {},
    strictVariables: true,
    captureMode: 'beginframe',
    workers: 1,
    network: 'sandboxed',
    ...(limits ? { limits } : {}),
  };
}
