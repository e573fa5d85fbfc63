import { contractSettingsEnv, runRenderApiContract, waitUntilAnswers, type ContractSettings } from '@seekframe/render-api/contract-suite';
import { contractCompositionDir } from '@seekframe/render-api/node';
import { beforeAll, describe } from 'vitest';
import { containerTestsEnabled, ensureImage, podman } from '../../../core/cli/test/container-images.js';
import { startLocalWorker } from '../local/local-worker.js';

/**
 * The Cloudflare template with its real container: the image `npm run build:image` builds (the
 * Dockerfile wrangler deploys, on a base made from Debian's packages here), run under podman with
 * its server published on a loopback port only, and the Worker in the real Workers runtime
 * (Miniflare, containers disabled, local R2 and Durable Objects) pointed at that port
 * (CONTAINER_LOCAL_URL). Every render of the contract suite runs inside the container.
 * What only Cloudflare runs: the Container class starting instances, their sleep, the deploy.
 */
const enabled = containerTestsEnabled('Cloudflare container image tests');

/** Worker vars for a group of the contract suite: the shared mapping, with the slots the container got. */
function vars(settings: ContractSettings, slots: number): Record<string, string> {
  return { ...contractSettingsEnv(settings), RENDER_MAX_CONCURRENT: String(slots) };
}

/** The image's container with the contract composition in place of the baked one; its server on 127.0.0.1:<port>. */
async function startContainer(image: string, slots: number): Promise<{ url: string; stop(): Promise<void> }> {
  const id = (
    await podman([
      'run',
      '--detach',
      '--rm',
      // Published on loopback only: nothing but this machine reaches the server.
      '--publish',
      '127.0.0.1::8080',
      '--mount',
      `type=bind,source=${contractCompositionDir()},target=/app/composition,readonly`,
      '--env',
      `MAX_CONCURRENT_RENDERS=${slots}`,
      '--env',
      'RENDER_WORKERS=1',
      image,
    ])
  ).trim();
  try {
    const port = /:(\d+)\s*$/.exec((await podman(['port', id, '8080/tcp'])).trim())?.[1];
    if (!port) throw new Error(`podman port ${id} gave no loopback port`);
    const url = `http://127.0.0.1:${port}`;
    await waitUntilAnswers(`${url}/health`, { name: "the container's server", details: () => podman(['logs', id]).catch(() => '') });
    return { url, stop: async () => void (await podman(['rm', '--force', '--time', '2', id]).catch(() => undefined)) };
  } catch (error) {
    await podman(['rm', '--force', id]).catch(() => undefined);
    throw error;
  }
}

describe.skipIf(!enabled)('cloudflare-container image (podman)', () => {
  let image: string | undefined;
  // Built (or found up to date) once, before the suite starts its targets.
  beforeAll(async () => {
    image = (await ensureImage('cloudflare')).image;
  }, 30 * 60_000);
  runRenderApiContract({
    name: 'cloudflare-container (Worker in Miniflare, R2, renders in the container image under podman)',
    answerMode: 'sync',
    webhooks: true,
    async start(settings) {
      if (!image) throw new Error('the Cloudflare container image was not built');
      const slots = settings.maxConcurrentRenders ?? 5;
      const container = await startContainer(image, slots);
      try {
        const worker = await startLocalWorker({
          compositionDir: contractCompositionDir(),
          containerUrl: container.url,
          vars: vars(settings, slots),
        });
        return {
          baseUrl: worker.url,
          async stop() {
            await worker.stop();
            await container.stop();
          },
        };
      } catch (error) {
        await container.stop();
        throw error;
      }
    },
  });
});
