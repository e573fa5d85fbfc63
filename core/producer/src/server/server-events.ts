import type { JobEvent, JobSnapshot } from '../jobs/render-job.js';
import type { RenderEvent } from '../render/render-events.js';
import type { RenderReport } from '../report/render-report.js';
import type { ServerRenderResult } from './run-render-job.js';

/**
 * What `POST /render/stream` sends, one SSE message per event (`event:` = type, `data:` = JSON).
 * The render's own events pass through unchanged, except `complete`, which names a download URL
 * instead of a path on the server. The server adds `queued` and `cancelled`.
 */
export type ProducerServerEvent =
  | { type: 'queued'; requestId: string /** 1 = next in line; sent again when it changes. */; position: number }
  | Exclude<RenderEvent, { type: 'complete' }>
  | {
      type: 'complete';
      requestId: string;
      /** `/outputs/<token>` on this server. */
      outputUrl: string;
      size: number;
      durationMs: number;
      videoDuration: number;
      /** Where the time went, as in the render's own `complete` event. */
      report: RenderReport;
    }
  | { type: 'cancelled'; requestId: string; reason: string };

/** Events after which the stream ends. */
export type FinalServerEvent = Extract<ProducerServerEvent, { type: 'complete' | 'error' | 'cancelled' }>;

export function isFinalEvent(event: ProducerServerEvent): event is FinalServerEvent {
  return event.type === 'complete' || event.type === 'error' || event.type === 'cancelled';
}

/**
 * A job event as the stream sends it (null: nothing to send). The snapshot a subscription starts
 * with becomes `queued` while the job waits, or the final event when it already ended.
 */
export function toServerEvent(event: JobEvent<ServerRenderResult>, job: JobSnapshot<ServerRenderResult>): ProducerServerEvent | null {
  switch (event.type) {
    case 'snapshot':
      if (job.status === 'queued') return { type: 'queued', requestId: job.id, position: job.position };
      if (job.status === 'completed' && job.result) return { type: 'complete', requestId: job.id, ...job.result };
      if (job.status === 'failed' && job.error) return { type: 'error', error: job.error };
      if (job.status === 'cancelled') return { type: 'cancelled', requestId: job.id, reason: job.reason ?? 'cancelled' };
      return null;
    case 'queued':
      return { type: 'queued', requestId: job.id, position: event.position };
    case 'started':
      return null;
    case 'completed':
      return { type: 'complete', requestId: job.id, ...event.result };
    case 'failed':
      return { type: 'error', error: event.error };
    case 'cancelled':
      return { type: 'cancelled', requestId: job.id, reason: event.reason };
    default:
      return event;
  }
}
