import { existsSync } from 'node:fs';
import { cp, readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  BUNDLED,
  contractSettingsEnv,
  measurePreview,
  MIN_PSNR_DB,
  PARITY,
  referenceFrames,
  runRenderApiContract,
  type ParityComposition,
} from '@seekframe/render-api/contract-suite';
import { startDevServer } from './support/dev-server.js';
import { installedContractComposition, itRendersWithNpmRunDev, useTemplateProject } from './support/template-project.js';
import { timed, userShell } from './support/user-shell.js';

const shell = await userShell();
let project = '';

/** The Vercel template as the user's own project: `seekframe init my-app --template vercel-sandbox`. */
describe('vercel-sandbox template as a project of its own', () => {
  const created = useTemplateProject(shell, 'vercel-sandbox', 'public/compositions/ui-3d-reveal');
  beforeAll(() => {
    project = created();
  });

  it('Vercel builds it as it is: no install or build at a monorepo root', async () => {
    // Vercel installs this folder, then builds and snapshots.
    const vercel = JSON.parse(await readFile(path.join(project, 'vercel.json'), 'utf8')) as Record<string, unknown>;
    expect(vercel).toMatchObject({ framework: 'nextjs', buildCommand: 'npm run build && npm run create-snapshot' });
    expect(vercel.installCommand).toBeUndefined();
  });

  it('npm install from the registry, then next build (npm run build)', async () => {
    await timed('vercel-sandbox: npm install', () => shell.run('npm', ['install'], { cwd: project }));
    await timed('vercel-sandbox: next build', () =>
      shell.run('npm', ['run', 'build'], { cwd: project, env: { NEXT_TELEMETRY_DISABLED: '1' } }),
    );
    expect(existsSync(path.join(project, '.next/BUILD_ID'))).toBe(true);
    // The build step after next build loads (outside a Vercel build it says so and makes no snapshot).
    const snapshot = await shell.run('npm', ['run', 'create-snapshot'], { cwd: project });
    expect(snapshot.stdout).toContain('VERCEL_DEPLOYMENT_ID is not set');
  });

  itRendersWithNpmRunDev(shell, 'vercel-sandbox', created, () => ({ NEXT_TELEMETRY_DISABLED: '1' }));
});

// The same local run on the production build made above (`npm run start:local` = next start
// with the Blob stand-in and local sandboxes): the suite starts the app once per settings group,
// and next dev would compile the routes again each time. This is the template's only `next build`
// in a test run.
runRenderApiContract({
  name: 'vercel-sandbox project (npm run start:local: next start, a local Blob stand-in, local sandboxes)',
  answerMode: 'sync',
  webhooks: true,
  async start(settings) {
    const server = await startDevServer(shell, {
      cwd: project,
      script: 'start:local',
      env: {
        ...contractSettingsEnv(settings),
        NEXT_TELEMETRY_DISABLED: '1',
        PREVIEW_COMPOSITION_DIR: installedContractComposition(project),
      },
    });
    return { baseUrl: server.baseUrl, stop: server.stop };
  },
});

// The preview shows what the render renders, in the project as users get it (the same production
// build): the page in Chromium that reaches only loopback, the player seeked to three times, each
// picture against the render's frame (PSNR at 640x360). The bundled composition is the project's
// own copy; the parity composition (a <template> sub-composition with GSAP by CDN URL, a Google
// Fonts family, CSS animations) is copied into public/compositions/, so its packages and fonts
// come from the project's node_modules.
describe.each([BUNDLED, PARITY])('vercel-sandbox project preview of $name', (composition: ParityComposition) => {
  it('matches the render at three times, offline (npm run start:local)', async () => {
    const reference = await referenceFrames(composition);
    const dir = path.join(project, 'public/compositions', composition === BUNDLED ? 'ui-3d-reveal' : composition.name);
    if (composition !== BUNDLED) await cp(composition.dir, dir, { recursive: true });
    const server = await startDevServer(shell, {
      cwd: project,
      script: 'start:local',
      env: { NEXT_TELEMETRY_DISABLED: '1', PREVIEW_COMPOSITION_DIR: dir },
    });
    try {
      const { psnr, offline } = await measurePreview('Vercel template (next start)', `${server.baseUrl}/`, composition, reference);
      expect(offline).toEqual([]);
      for (const value of psnr) expect(value).toBeGreaterThanOrEqual(MIN_PSNR_DB);
    } finally {
      await server.stop();
    }
  });
});
