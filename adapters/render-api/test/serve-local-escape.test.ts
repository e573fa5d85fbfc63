import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { findFfmpeg } from '@seekframe/engine';
import { checkoutCli } from '../src/contract-suite/checkout-cli.js';
import { countColorPixels, probeVideo } from '../src/contract-suite/contract-http.js';
import { serveLocal, type LocalRenderApi } from '../src/node/serve-local.js';

const run = promisify(execFile);

/**
 * The attack of issue 23 on a template, by a variable value alone: the template's own composition
 * puts its `image` variable into an <img>, as the spec says media are passed. The folder above
 * the composition has a package.json and a magenta secret image; `..@latest` used to name that
 * folder as a package and the secret ended up in the rendered video.
 */
const MAGENTA = [0xff, 0x00, 0xff] as const;
let site: string;
let api: LocalRenderApi;

beforeAll(async () => {
  site = await mkdtemp(path.join(tmpdir(), 'render-api-escape-'));
  const composition = path.join(site, 'composition');
  await mkdir(composition, { recursive: true });
  await mkdir(path.join(site, 'private'));
  await writeFile(path.join(site, 'package.json'), '{"name":"site","version":"1.0.0","private":true}');
  const { ffmpeg } = await findFfmpeg();
  await run(ffmpeg, [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    'color=c=0xff00ff:s=64x64',
    '-frames:v',
    '1',
    path.join(site, 'private', 'secret.png'),
  ]);
  await run(ffmpeg, ['-v', 'error', '-f', 'lavfi', '-i', 'color=c=0x00a060:s=64x64', '-frames:v', '1', path.join(composition, 'logo.png')]);
  await writeFile(
    path.join(composition, 'index.html'),
    `<!doctype html><html data-composition-id="poster" data-width="64" data-height="64" data-duration="0.2" data-fps="10"
data-composition-variables='[{"id":"image","type":"string","label":"Image URL","default":"logo.png"}]'>
<head><style>html,body{margin:0;width:64px;height:64px;background:#123}img{width:64px;height:64px;display:block}</style></head>
<body><img id="i" alt=""><script>document.getElementById('i').src = window.__seekframe.getVariables().image;</script></body></html>`,
  );
  api = await serveLocal({ compositionDir: composition, runner: { cli: checkoutCli(), workers: 1 } });
}, 60_000);
afterAll(async () => {
  await api?.close();
  await rm(site, { recursive: true, force: true });
});

async function render(image: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${api.url}/api/render`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ variables: { image } }),
  });
  return { status: response.status, text: await response.text() };
}

it('the control: the default image renders, so the page really shows what the variable names', { timeout: 180_000 }, async () => {
  const answer = await render('logo.png');
  expect(answer.status).toBe(200);
  const video = await fetch(new URL(JSON.parse(answer.text).url as string, api.url)).then(
    async (r) => new Uint8Array(await r.arrayBuffer()),
  );
  expect(await probeVideo(video)).toMatchObject({ width: 64, height: 64 });
  expect(await countColorPixels(video, 'mp4', MAGENTA, 40)).toBe(0);
  expect(await countColorPixels(video, 'mp4', [0x00, 0xa0, 0x60], 40)).toBeGreaterThan(2000);
});

it.each([
  'https://cdn.jsdelivr.net/npm/..@latest/private/secret.png',
  'https://unpkg.com/..@1/private/secret.png',
  'https://cdn.jsdelivr.net/npm/%2e%2E@latest/private/secret.png',
])(
  'an image variable of /__seekframe/remote?url=%s: the render fails naming the URL, no frame of the secret',
  { timeout: 180_000 },
  async (url) => {
    const answer = await render(`/__seekframe/remote?url=${encodeURIComponent(url)}`);
    // Before the fix: 200 and a magenta video. Now the asset is refused and the render says which.
    expect(answer.status).toBeGreaterThanOrEqual(400);
    const error = (JSON.parse(answer.text) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe('remote-asset-failed');
    expect(error.message).toContain('is not an npm package name');
    expect(answer.text).not.toContain(site);
  },
);
