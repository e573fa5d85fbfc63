import type { ServerResponse } from 'node:http';
import type { BrowserPoolStats } from '@seekframe/engine';
import { SeekframeError } from '@seekframe/composition';
import type { RequestIdEnv } from '../http/index.js';
import type { RenderJobs } from '../jobs/render-jobs.js';
import type { ParsedRenderRequest } from './render-request.js';
import type { ServerRenderResult } from './run-render-job.js';

/** The Hono environment of the producer server's routes: the Node response (for SSE and disconnects) and the read body. */
export type ProducerEnv = { Bindings: { outgoing?: ServerResponse }; Variables: { bodyText: string } & RequestIdEnv['Variables'] };

/** What the routes need from the server around them: the job service and the lifecycle. */
export interface ServerJobs {
  jobs: RenderJobs<ParsedRenderRequest, ServerRenderResult>;
  isClosing(): boolean;
  /** The warm browser pool's counts for /health (null: no pool). */
  browserPool?(): BrowserPoolStats | null;
}

/** A refusal of the server's own (the request's fault or its state); errors of a render come from the render. */
export function serverError(
  code:
    | 'url-too-long'
    | 'not-found'
    | 'shutting-down'
    | 'body-too-large'
    | 'render-expired'
    | 'render-not-found'
    | 'render-not-running'
    | 'render-cancelled'
    | 'output-not-found',
  message: string,
): SeekframeError {
  return new SeekframeError(code, message, { stage: 'config' });
}
