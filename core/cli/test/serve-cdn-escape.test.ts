import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seekframeBin } from './interrupt-cli.js';

/**
 * The attack of issue 23 against `seekframe serve`, end to end: the served folder sits in a
 * repository whose root has a package.json and a `.env`; a project page asks the remote route for
 * `https://unpkg.com/..@1/.env` (npm CDN URLs are answered from installed packages, and `..` used
 * to name the repository root as a package). The page paints itself magenta when it got the
 * secret. The render must fail naming the URL, and nothing the client gets may hold the secret.
 */
const SECRET = 'SEEKFRAME-ENV-SECRET-91be';
let repo: string;

const page = (
  url: string,
): string => `<!doctype html><html data-composition-id="leak" data-width="32" data-height="32" data-duration="0.2" data-fps="10"><head></head>
<body style="margin:0;background:#0a0"><pre id="out"></pre><script>
const request = new XMLHttpRequest();
request.open('GET', '/__seekframe/remote?url=' + encodeURIComponent(${JSON.stringify(url)}), false);
request.send();
document.getElementById('out').textContent = request.responseText;
if (request.responseText.includes(${JSON.stringify(SECRET)})) document.body.style.background = '#f0f';
</script></body></html>`;

beforeAll(async () => {
  repo = await mkdtemp(path.join(os.tmpdir(), 'seekframe-serve-escape-'));
  await writeFile(path.join(repo, 'package.json'), '{"name":"repo","version":"1.0.0","private":true}');
  await writeFile(path.join(repo, '.env'), `API_KEY=${SECRET}\n`);
  for (const [name, url] of [
    ['unpkg', 'https://unpkg.com/..@1/.env'],
    ['jsdelivr', 'https://cdn.jsdelivr.net/npm/..@latest/.env'],
    ['encoded', 'https://unpkg.com/%2E%2e@1/.env'],
    ['scoped', 'https://unpkg.com/@scope/..@1/.env'],
  ] as const) {
    await mkdir(path.join(repo, 'projects', name), { recursive: true });
    await writeFile(path.join(repo, 'projects', name, 'index.html'), page(url));
  }
});
afterAll(async () => rm(repo, { recursive: true, force: true }));

it('seekframe serve: a page asking the remote route for https://unpkg.com/..@1/.env gets no byte of it; the render fails naming the URL', {
  timeout: 120_000,
}, async () => {
  const child = spawn(process.execPath, [seekframeBin, 'serve', '--port', '0'], {
    cwd: path.join(repo, 'projects'),
    env: { PATH: process.env.PATH, HOME: os.homedir() },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        log += chunk.toString();
        const match = /serving (http:\/\/\S+)/.exec(log);
        if (match) resolve(match[1]!);
      });
      child.once('close', () => reject(new Error(`serve exited: ${log}`)));
    });
    for (const project of ['unpkg', 'jsdelivr', 'encoded', 'scoped']) {
      const response = await fetch(`${url}/render`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ projectDir: project, workers: 1 }),
      });
      const text = await response.text();
      expect({ project, leaked: text.includes(SECRET) }).toEqual({ project, leaked: false });
      const answer = JSON.parse(text) as { type?: string; error?: { code: string; message: string } };
      // Before the fix this was a finished video of the secret (a magenta frame); now no frame is made.
      expect({ project, type: answer.type, code: answer.error?.code }).toEqual({ project, type: undefined, code: 'remote-asset-failed' });
      expect(answer.error?.message).toMatch(/Refused https:\/\/(unpkg\.com|cdn\.jsdelivr\.net)\/.*is not an npm package name/);
      expect(answer.error?.message).not.toContain(repo);
    }
    expect(log).not.toContain(SECRET);
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      const closed = new Promise((resolve) => child.once('close', resolve));
      child.kill('SIGTERM');
      await closed;
    }
  }
});
