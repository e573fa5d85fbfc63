import type { DistributedStore } from '@seekframe/producer/distributed';
import { serveRenderApi, type LocalRenderApi, type ServeLocalOptions } from '@seekframe/render-api/node';
import { createQueueRunner } from './queue-runner.js';
import type { QueueSettings } from './queue-settings.js';

export interface ServeFleetApiOptions extends Omit<ServeLocalOptions, 'runner'> {
  queue: QueueSettings;
  /** The fleet's store (the workers' --store). */
  store: DistributedStore;
  /** Frames per chunk (default one second of video). */
  chunkFrames?: number;
  pollMs?: number;
}

/**
 * `seekframe serve --queue`: the render API every template serves (preview, /api/render,
 * statuses, cancel, webhooks, settings from RENDER_* variables) with the queue runner, so each
 * render fans out over the fleet's workers.
 */
export function serveFleetApi(options: ServeFleetApiOptions): Promise<LocalRenderApi> {
  const { queue, store, chunkFrames, pollMs, ...api } = options;
  return serveRenderApi({
    ...api,
    // A fleet render joins the chunks its workers make into one video: a still is one machine's
    // job (`seekframe still`, or a template's POST /api/render), so the body's `still` gets a 400.
    allowStills: false,
    runner: ({ objects, maxConcurrentRenders }) =>
      createQueueRunner({
        compositionDir: options.compositionDir,
        objects,
        queue,
        store,
        maxConcurrent: maxConcurrentRenders,
        ...(chunkFrames !== undefined ? { chunkFrames } : {}),
        ...(pollMs !== undefined ? { pollMs } : {}),
      }),
  });
}
