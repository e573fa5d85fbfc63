import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { runRenderApiContract, type ContractSettings } from '@seekframe/render-api/contract-suite';
import { contractCompositionDir, nodePreviewAssets, seekframeCli } from '@seekframe/render-api/node';
import { startTwin } from '../src/twin.js';
import { APP_DIR, PYTHON, startPythonApp } from './start-python-app.js';

const run = promisify(execFile);
const CLI = seekframeCli({ fromSource: true });

beforeAll(async () => {
  // dist/check-request.mjs and dist/preview/ from the current sources, with the contract
  // composition's preview files prepared (the Python app serves them).
  await run(process.execPath, [path.join(APP_DIR, 'scripts/build.mjs'), '--composition', contractCompositionDir()]);
}, 120_000);

describe('src/app.py', () => {
  it('compiles (python3 -m py_compile)', async () => {
    const cache = await mkdtemp(path.join(tmpdir(), 'modal-pycache-'));
    try {
      for (const file of ['src/app.py', 'src/web_routes.py', 'src/template_settings.py']) {
        await run(PYTHON, ['-m', 'py_compile', path.join(APP_DIR, file)], { env: { ...process.env, PYTHONPYCACHEPREFIX: cache } });
      }
      await run(PYTHON, ['-m', 'py_compile', path.join(APP_DIR, 'local/modal/__init__.py')], { env: { ...process.env, PYTHONPYCACHEPREFIX: cache } });
    } finally {
      await rm(cache, { recursive: true, force: true });
    }
  });
});

describe('src/app.py on Modal', () => {
  it('declares what the template promises: a 900 s, 4 CPU render function and a 150 s web function, both on the seekframe-renders volume', async () => {
    const probe = [
      'import json, app',
      'opts = lambda f: {k: v for k, v in f.options.items() if k in ("cpu", "memory", "timeout")}',
      'print(json.dumps({"render": opts(app.render), "web": opts(app.web), "volume": app.volume.name,',
      '  "mounts": sorted(set(list(app.render.options["volumes"]) + list(app.web.options["volumes"]))), "image": [s[0] for s in app.image.steps]}))',
    ].join('\n');
    const { stdout } = await run(PYTHON, ['-c', probe], {
      cwd: path.join(APP_DIR, 'src'),
      env: { ...process.env, PYTHONPATH: `${path.join(APP_DIR, 'local')}:${path.join(APP_DIR, 'src')}`, PYTHONDONTWRITEBYTECODE: '1' },
    });
    expect(JSON.parse(stdout)).toEqual({
      render: { cpu: 4, memory: 8192, timeout: 900 },
      web: { timeout: 150 },
      volume: 'seekframe-renders',
      mounts: ['/renders'],
      image: ['from_registry', 'apt_install', 'pip_install', 'add_local_dir', 'run_commands', 'env', 'add_local_python_source'],
    });
  });
});

function settingsEnv(settings: ContractSettings): Record<string, string> {
  return {
    ...(settings.token ? { RENDER_API_TOKEN: settings.token } : {}),
    ...(settings.allowCustomHtml ? { ALLOW_CUSTOM_HTML: 'true' } : {}),
    ...(settings.maxConcurrentRenders ? { RENDER_MAX_CONCURRENT: String(settings.maxConcurrentRenders) } : {}),
    ...(settings.maxFrames ? { RENDER_MAX_FRAMES: String(settings.maxFrames) } : {}),
    ...(settings.maxMemoryMB ? { RENDER_MAX_MEMORY_MB: String(settings.maxMemoryMB) } : {}),
    ...(settings.retentionSeconds ? { RENDER_RETENTION_SECONDS: String(settings.retentionSeconds) } : {}),
  };
}

runRenderApiContract({
  name: 'modal-function TypeScript twin (call-id)',
  answerMode: 'call-id',
  async start(settings) {
    const api = await startTwin({ compositionDir: contractCompositionDir(), env: settingsEnv(settings), runner: { cli: CLI, workers: 1 }, previewAssets: nodePreviewAssets({ fromSource: true }) });
    return { baseUrl: api.url, stop: () => api.close() };
  },
});

runRenderApiContract({
  name: 'modal-function src/app.py under uvicorn with the local modal stand-in (call-id)',
  answerMode: 'call-id',
  async start(settings) {
    const app = await startPythonApp({ compositionDir: contractCompositionDir(), env: { ...settingsEnv(settings), SEEKFRAME_CLI: [CLI.command, ...CLI.args].join(' '), SEEKFRAME_WORKERS: '1' } });
    return { baseUrl: app.url, stop: () => app.stop() };
  },
});
