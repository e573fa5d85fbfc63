import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  BUNDLED,
  contractSettingsEnv,
  measurePreview,
  MIN_PSNR_DB,
  referenceFrames,
  runRenderApiContract,
} from '@seekframe/render-api/contract-suite';
import { freePort, startDevServer } from './support/dev-server.js';
import { installedContractComposition, itRendersWithNpmRunDev, useTemplateProject } from './support/template-project.js';
import { timed, userShell } from './support/user-shell.js';

const shell = await userShell();
let project = '';

/** The Cloudflare template as the user's own project: `seekframe init my-app --template cloudflare-container`. */
describe('cloudflare-container template as a project of its own', () => {
  const created = useTemplateProject(shell, 'cloudflare-container', 'compositions/ui-3d-reveal');
  beforeAll(() => {
    project = created();
  });

  it('npm install from the registry, the Worker bundle (npm run build)', async () => {
    await timed('cloudflare-container: npm install', () => shell.run('npm', ['install'], { cwd: project }));
    await timed('cloudflare-container: Worker bundle', () => shell.run('npm', ['run', 'build'], { cwd: project }));
    expect(existsSync(path.join(project, 'dist/worker/worker.js'))).toBe(true);
  });

  it('wrangler deploy --dry-run: the deploy build, the container context from the installed packages, bindings and Durable Objects', async () => {
    // The container image itself is the one thing left out: wrangler would build ./Dockerfile
    // with Docker (not here). The same config with a registry image reference instead checks
    // everything else wrangler does before an upload.
    const config = (await readFile(path.join(project, 'wrangler.jsonc'), 'utf8')).replace(
      '"image": "./Dockerfile"',
      '"image": "registry.cloudflare.com/seekframe-renderer:dry-run"',
    );
    expect(config).toContain('registry.cloudflare.com/seekframe-renderer:dry-run');
    await writeFile(path.join(project, 'wrangler.dry-run.jsonc'), config);
    const { stdout } = await timed('cloudflare-container: wrangler deploy --dry-run', () =>
      shell.run('npx', ['wrangler', 'deploy', '--dry-run', '--config', 'wrangler.dry-run.jsonc', '--outdir', 'dist/dry-run'], {
        cwd: project,
        env: { WRANGLER_SEND_METRICS: 'false' },
      }),
    );
    expect(stdout).toContain('--dry-run: exiting now.');
    expect(stdout).toMatch(/env\.RENDERS \(seekframe-renders\)\s+R2 Bucket/);
    expect(stdout).toMatch(/env\.JOBS \(RenderJobObject\)\s+Durable Object/);
    // The image's npm packages: the installed @seekframe packages and the composition's GSAP.
    const packs = (await readdir(path.join(project, 'dist/container/packs'))).sort();
    const version = shell.context.packed.find((pkg) => pkg.name === '@seekframe/producer')!.version;
    expect(packs).toEqual(
      expect.arrayContaining([
        `seekframe-producer-${version}.tgz`,
        `seekframe-engine-${version}.tgz`,
        `seekframe-runtime-${version}.tgz`,
        `seekframe-composition-${version}.tgz`,
      ]),
    );
    expect(packs.some((name) => /^gsap-3\./.test(name))).toBe(true);
  });

  // The Worker in workerd, the render server on the host.
  itRendersWithNpmRunDev(shell, 'cloudflare-container', created, async () => ({ CONTAINER_PORT: String(await freePort()) }));
});

runRenderApiContract({
  name: 'cloudflare-container project (npm run dev: the Worker in workerd, the render server on the host)',
  answerMode: 'sync',
  webhooks: true,
  async start(settings) {
    const server = await startDevServer(shell, {
      cwd: project,
      env: {
        ...contractSettingsEnv(settings),
        // As deployed: the container slots (max_instances) match RENDER_MAX_CONCURRENT.
        RENDER_MAX_CONCURRENT: String(settings.maxConcurrentRenders ?? 5),
        CONTAINER_PORT: String(await freePort()),
        PREVIEW_COMPOSITION_DIR: installedContractComposition(project),
      },
    });
    return { baseUrl: server.baseUrl, stop: server.stop };
  },
});

// The preview shows what the render renders in the project as users get it (installed from the
// registry, its own copy of ui-3d-reveal and its own gsap): Chromium reaches only loopback, the
// player is seeked to three times, each picture compared with the render's frame (PSNR at 640x360).
describe('cloudflare-container project preview of ui-3d-reveal', () => {
  it('matches the render at three times, offline (npm run dev)', async () => {
    const reference = await referenceFrames(BUNDLED);
    const server = await startDevServer(shell, {
      cwd: project,
      env: { CONTAINER_PORT: String(await freePort()), PREVIEW_COMPOSITION_DIR: path.join(project, 'compositions/ui-3d-reveal') },
    });
    try {
      const { psnr, offline } = await measurePreview(
        'Cloudflare template (npm run dev, the project from the registry)',
        `${server.baseUrl}/`,
        BUNDLED,
        reference,
      );
      expect(offline).toEqual([]);
      for (const value of psnr) expect(value).toBeGreaterThanOrEqual(MIN_PSNR_DB);
    } finally {
      await server.stop();
    }
  });
});
