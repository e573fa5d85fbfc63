import type { RenderEvent } from '../render/render-events.js';

/**
 * What `POST /render/stream` sends, one SSE message per event (`event:` = type, `data:` = JSON).
 * The render's own events pass through unchanged, except `complete`, which names a download URL
 * instead of a path on the server. The server adds `queued` and `cancelled`.
 */
export type ProducerServerEvent =
  | { type: 'queued'; requestId: string; /** 1 = next in line; sent again when it changes. */ position: number }
  | Exclude<RenderEvent, { type: 'complete' }>
  | {
      type: 'complete';
      requestId: string;
      /** `/outputs/<token>` on this server. */
      outputUrl: string;
      size: number;
      durationMs: number;
      videoDuration: number;
    }
  | { type: 'cancelled'; requestId: string; reason: string };

/** Events after which the stream ends. */
export type FinalServerEvent = Extract<ProducerServerEvent, { type: 'complete' | 'error' | 'cancelled' }>;

export function isFinalEvent(event: ProducerServerEvent): event is FinalServerEvent {
  return event.type === 'complete' || event.type === 'error' || event.type === 'cancelled';
}
