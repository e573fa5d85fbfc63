import type { Miniflare } from 'miniflare';
import type { RenderServerOptions } from '../../container/render-server.js';
import { startLocalWorker as startWorker } from '../../local/local-worker.js';
import { startRenderServer } from './start-render-server.js';

export interface LocalWorker {
  /** The Worker, listening on 127.0.0.1. */
  url: string;
  /** The container's server on the host (local mode). */
  containerUrl: string;
  mf: Miniflare;
  stop(): Promise<void>;
}

/** The template's local form for a test: the container's server on 127.0.0.1 and the Worker in Miniflare pointed at it. */
export async function startLocalWorker(options: {
  compositionDir: string;
  vars?: Record<string, string>;
  container?: Partial<RenderServerOptions>;
}): Promise<LocalWorker> {
  const container = await startRenderServer({ compositionDir: options.compositionDir, ...options.container });
  try {
    const worker = await startWorker({
      compositionDir: options.compositionDir,
      containerUrl: container.url,
      ...(options.vars ? { vars: options.vars } : {}),
    });
    return {
      url: worker.url,
      containerUrl: container.url,
      mf: worker.mf,
      async stop() {
        await worker.stop();
        await container.close();
      },
    };
  } catch (error) {
    await container.close();
    throw error;
  }
}
