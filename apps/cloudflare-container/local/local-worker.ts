import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import { unstable_getMiniflareWorkerOptions, unstable_readConfig } from 'wrangler';
import { compatibilityDate as newestRuntimeDate } from 'workerd';
import { buildWorker } from '../scripts/build.mjs';

const WRANGLER_CONFIG = new URL('../wrangler.jsonc', import.meta.url).pathname;

export interface LocalWorkerOptions {
  compositionDir: string;
  /** The container's server running on this machine (CONTAINER_LOCAL_URL). */
  containerUrl: string;
  /** Worker vars/secrets on top of wrangler.jsonc's `vars`. */
  vars?: Record<string, string>;
  /** Default: any free port. */
  port?: number;
  /** Where R2 and Durable Object state live; default a temp folder removed on stop. */
  stateDir?: string;
}

export interface LocalWorker {
  /** The Worker, listening on 127.0.0.1. */
  url: string;
  mf: Miniflare;
  stop(): Promise<void>;
}

/**
 * The Worker as deployed, run locally without Docker: the real Workers runtime (Miniflare and
 * workerd from npm) with the bindings wrangler.jsonc declares (read by wrangler's own config
 * reader, containers disabled), a real local R2 bucket and Durable Objects, and
 * CONTAINER_LOCAL_URL pointing the job objects at the container's server on this machine. The
 * Container class is declared but never constructed.
 */
export async function startLocalWorker(options: LocalWorkerOptions): Promise<LocalWorker> {
  const work = await mkdtemp(join(tmpdir(), 'seekframe-cf-worker-'));
  const stateDir = options.stateDir ?? join(work, 'state');
  try {
    const { outfile, assetsDir } = await buildWorker({
      compositionDir: options.compositionDir,
      outDir: join(work, 'dist'),
      assetsDir: join(work, 'assets'),
    });
    // wrangler.jsonc as wrangler reads it, its static assets (the prepared composition files) from this build.
    const config = unstable_readConfig({ config: WRANGLER_CONFIG });
    if (config.assets) config.assets = { ...config.assets, directory: assetsDir };
    const { workerOptions } = unstable_getMiniflareWorkerOptions(config, undefined, { overrides: { enableContainers: false } });
    const { containerEngine: _engine, ...rest } = workerOptions as typeof workerOptions & { containerEngine?: unknown };
    const declared = (rest as { compatibilityDate?: string }).compatibilityDate ?? newestRuntimeDate;
    const mf = new Miniflare({
      ...(rest as object),
      name: 'seekframe-renderer',
      modules: true,
      scriptPath: outfile,
      modulesRoot: join(work, 'dist'),
      // wrangler.jsonc asks for a date newer than the npm workerd that runs on Node 20 knows;
      // locally the newest it has is used (only Durable Object eviction rules differ).
      compatibilityDate: declared > newestRuntimeDate ? newestRuntimeDate : declared,
      bindings: {
        ...((rest as { bindings?: Record<string, string> }).bindings ?? {}),
        ...options.vars,
        CONTAINER_LOCAL_URL: options.containerUrl,
      },
      r2Persist: join(stateDir, 'r2'),
      durableObjectsPersist: join(stateDir, 'do'),
      host: '127.0.0.1',
      port: options.port ?? 0,
    } as ConstructorParameters<typeof Miniflare>[0]);
    const url = (await mf.ready).toString().replace(/\/$/, '');
    return {
      url,
      mf,
      async stop() {
        await mf.dispose();
        await rm(work, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(work, { recursive: true, force: true });
    throw error;
  }
}
