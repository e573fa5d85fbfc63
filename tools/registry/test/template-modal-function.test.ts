import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
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
import { startDevServer } from './support/dev-server.js';
import { installedContractComposition, itRendersWithNpmRunDev, useTemplateProject } from './support/template-project.js';
import { timed, userShell } from './support/user-shell.js';

// Debian's python3 is the one python3-fastapi/python3-uvicorn install into (scripts/setup.sh).
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
const shell = await userShell();
let project = '';

/** The function template as the user's own project: `seekframe init my-app --template modal-function`. */
describe('modal-function template as a project of its own', () => {
  const created = useTemplateProject(shell, 'modal-function', 'compositions/ui-3d-reveal');
  beforeAll(() => {
    project = created();
  });

  it('npm install from the registry, npm run build, python3 -m py_compile src/app.py', async () => {
    await timed('modal-function: npm install', () => shell.run('npm', ['install'], { cwd: project }));
    await timed('modal-function: npm run build', () => shell.run('npm', ['run', 'build'], { cwd: project }));
    // The preview's composition files come prepared by the render's rule (no runtime bundle of its own).
    for (const file of [
      'dist/check-request.mjs',
      'dist/preview/index.html',
      'dist/preview/app.js',
      'dist/preview/seekframe-player.js',
      'dist/preview/compositions/ui-3d-reveal/manifest.json',
    ]) {
      expect(existsSync(path.join(project, file)), file).toBe(true);
    }
    const cache = await mkdtemp(path.join(shell.context.root, 'pycache-'));
    await shell.run(
      PYTHON,
      [
        '-m',
        'py_compile',
        'src/app.py',
        'src/web_routes.py',
        'src/preview_routes.py',
        'src/request_paths.py',
        'src/file_responses.py',
        'src/template_settings.py',
        'src/webhook_addresses.py',
        'src/webhook_delivery.py',
        'src/webhooks.py',
      ],
      { cwd: project, env: { PYTHONPYCACHEPREFIX: cache } },
    );
  });

  it('the Modal image is built from this project (its package.json and lock), not from a Seekframe checkout', async () => {
    const probeScript =
      'import json, app\nprint(json.dumps([[name, list(args), kwargs.get("remote_path")] for name, args, kwargs in app.image.steps if name in ("add_local_dir", "run_commands")]))';
    const { stdout } = await shell.run(PYTHON, ['-c', probeScript], {
      cwd: path.join(project, 'src'),
      env: { PYTHONPATH: `${path.join(project, 'local')}:${path.join(project, 'src')}`, PYTHONDONTWRITEBYTECODE: '1' },
    });
    const steps = JSON.parse(stdout) as Array<[string, string[], string | null]>;
    expect(steps[0]).toEqual(['add_local_dir', [project], '/opt/app']);
    expect(steps[1]).toEqual([
      'run_commands',
      ['cd /opt/app && npm ci --no-audit --no-fund', 'cd /opt/app && PREVIEW_COMPOSITION=ui-3d-reveal npm run build'],
      null,
    ]);
  });

  itRendersWithNpmRunDev(shell, 'modal-function', created, () => ({ SEEKFRAME_WORKERS: '1' }));
});

runRenderApiContract({
  name: 'modal-function project (npm run dev: src/app.py under uvicorn)',
  answerMode: 'call-id',
  webhooks: true,
  async start(settings) {
    const state = await mkdtemp(path.join(shell.context.root, 'modal-state-'));
    const composition = installedContractComposition(project);
    const server = await startDevServer(shell, {
      cwd: project,
      env: {
        ...contractSettingsEnv(settings),
        SEEKFRAME_WORKERS: '1',
        COMPOSITIONS_DIR: path.dirname(composition),
        PREVIEW_COMPOSITION: path.basename(composition),
        SEEKFRAME_VOLUME_PATH: path.join(state, 'volume'),
        MODAL_LOCAL_STATE_DIR: path.join(state, 'state'),
      },
    });
    return { baseUrl: server.baseUrl, stop: server.stop };
  },
});

// The preview shows what the render renders in the project as users get it (installed from the
// registry, its own copy of ui-3d-reveal and its own gsap): Chromium reaches only loopback, the
// player is seeked to three times, each picture compared with the render's frame (PSNR at 640x360).
describe('modal-function project preview of ui-3d-reveal', () => {
  it('matches the render at three times, offline (npm run dev)', async () => {
    const reference = await referenceFrames(BUNDLED);
    const state = await mkdtemp(path.join(shell.context.root, 'modal-preview-state-'));
    const server = await startDevServer(shell, {
      cwd: project,
      env: { SEEKFRAME_VOLUME_PATH: path.join(state, 'volume'), MODAL_LOCAL_STATE_DIR: path.join(state, 'state') },
    });
    try {
      const { psnr, offline } = await measurePreview(
        'Modal template (npm run dev, the project from the registry)',
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
