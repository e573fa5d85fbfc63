import type { StoredRequest } from '../progress/progress-records.js';

/**
 * The render spec a Lambda render asks the core for: the request's settings, the extracted
 * project, beginFrame capture (deterministic across machines), one worker per chunk.
 */
export function specInput(request: StoredRequest, projectDir: string): Record<string, unknown> {
  const body = request.request;
  return {
    projectDir,
    format: body.format ?? 'mp4',
    ...(body.quality ? { quality: body.quality } : {}),
    ...(body.fps !== undefined ? { fps: body.fps } : {}),
    // A span: the plan's totalFrames are the span's, so the chunks, the audio mix and assembly follow it.
    ...(body.frames ? { frames: body.frames } : {}),
    variables: body.variables ?? {},
    strictVariables: true,
    captureMode: 'beginframe',
    workers: 1,
    // The page is untrusted: it reaches only its own project and public assets.
    network: 'sandboxed',
    ...(request.limits ? { limits: request.limits } : {}),
  };
}
