import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startBlobFake, type BlobFake } from '@seekframe/vercel-sandbox/testing';

// The build step (scripts/create-snapshot.ts) as vercel.json runs it, with local sandboxes and the
// Blob stand-in; then a render through the route handler restores the snapshot it recorded.

const run = promisify(execFile);
const APP_DIR = fileURLToPath(new URL('..', import.meta.url));
const REPO_ROOT = path.resolve(APP_DIR, '../..');

let fake: BlobFake;
let scratch: string;
let composition: string;
const saved = { ...process.env };

beforeAll(async () => {
  fake = await startBlobFake();
  scratch = await mkdtemp(path.join(tmpdir(), 'seekframe-vercel-snapshot-'));
  composition = path.join(scratch, 'tiny');
  await mkdir(composition);
  await writeFile(
    path.join(composition, 'index.html'),
    `<!doctype html><html data-composition-id="tiny" data-width="160" data-height="90" data-duration="0.5" data-fps="10">
<head><style>html,body{margin:0;width:160px;height:90px;background:#234}</style></head>
<body><div style="position:absolute;right:0;bottom:0;width:8px;height:8px;background:#fff"></div></body></html>`,
  );
  await run(process.execPath, [path.join(REPO_ROOT, 'adapters/vercel-sandbox/scripts/build-sandbox-scripts.mjs')]);
});

afterAll(async () => {
  for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
  Object.assign(process.env, saved);
  await fake?.close();
  await rm(scratch, { recursive: true, force: true });
});

function snapshotStep(env: Record<string, string | undefined>): Promise<{ code: number; stdout: string; stderr: string }> {
  const clean = { ...process.env, ...env };
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete clean[key];
  return run(path.join(REPO_ROOT, 'node_modules/.bin/tsx'), ['--conditions=source', 'scripts/create-snapshot.ts'], {
    cwd: APP_DIR,
    env: clean,
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
}

const localEnv = (): Record<string, string> => ({
  SEEKFRAME_SANDBOX: 'local',
  SEEKFRAME_CLI_BIN: path.join(REPO_ROOT, 'core/cli/bin/seekframe.js'),
  SEEKFRAME_LOCAL_SANDBOX_DIR: scratch,
  PREVIEW_COMPOSITION_DIR: composition,
  BLOB_READ_WRITE_TOKEN: fake.token,
  VERCEL_BLOB_API_URL: fake.apiUrl,
});

describe('the snapshot build step', () => {
  it('outside a Vercel build it makes nothing and says so; without Blob it fails naming the fix', async () => {
    const skipped = await snapshotStep({ ...localEnv(), VERCEL_DEPLOYMENT_ID: undefined });
    expect(skipped.code).toBe(0);
    expect(skipped.stdout).toMatch(/VERCEL_DEPLOYMENT_ID is not set .*no snapshot made/);
    const noBlob = await snapshotStep({ ...localEnv(), VERCEL_DEPLOYMENT_ID: 'dpl_x', BLOB_READ_WRITE_TOKEN: undefined });
    expect(noBlob.code).toBe(1);
    expect(noBlob.stderr).toMatch(/BLOB_READ_WRITE_TOKEN is not set: connect a Blob store/);
    expect(fake.pathnames().filter((p) => p.startsWith('snapshot-cache/'))).toEqual([]);
  });

  it('a setting set but unusable fails the build step naming it, before anything is made (the deployment never serves with it)', async () => {
    for (const [name, value, deployment] of [
      ['RENDER_API_TOKEN', '  ', undefined],
      ['RENDER_MAX_FRAMES', 'lots', undefined],
      ['BLOB_ACCESS', 'privat', 'dpl_bad'],
    ] as const) {
      const failed = await snapshotStep({ ...localEnv(), VERCEL_DEPLOYMENT_ID: deployment, [name]: value });
      expect(failed.code, name).toBe(1);
      expect(failed.stderr, name).toMatch(new RegExp(`snapshot step failed: ${name} (is set but blank|must be)`));
    }
    expect(fake.pathnames().filter((p) => p.startsWith('snapshot-cache/'))).toEqual([]);
  });

  it('records snapshot-cache/<deployment>.json; a render of that deployment restores it instead of setting up', async () => {
    const made = await snapshotStep({ ...localEnv(), VERCEL_DEPLOYMENT_ID: 'dpl_build1' });
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toMatch(/smoke render of the composition/);
    expect(fake.pathnames()).toContain('snapshot-cache/dpl_build1.json');
    expect(await readdir(path.join(scratch, 'local-sandboxes', 'snapshots'))).toHaveLength(1);

    Object.assign(process.env, localEnv(), { VERCEL_DEPLOYMENT_ID: 'dpl_build1' });
    const logs: string[] = [];
    const spy = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void logs.push(args.join(' ')));
    try {
      const api = (await import('../app/api/[...path]/route.js')) as { POST: (r: Request) => Promise<Response> };
      const response = await api.POST(
        new Request('http://template.test/api/render', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
      );
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ key: expect.stringMatching(/^renders\//) });
    } finally {
      spy.mockRestore();
    }
    expect(logs.join('\n')).not.toMatch(/fresh sandbox|set-up/);
  });
});
