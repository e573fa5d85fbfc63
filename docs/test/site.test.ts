import { spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findBrowser, launchBrowser, type BrowserSession } from '@seekframe/engine';
import { SIDEBAR } from '../.vitepress/sidebar.js';
import { REPO_DIR } from '../scripts/paths.js';
import { RECIPES } from '../scripts/recipe-clips.js';

// The site is built once for this file (the only test that builds it), into a temporary folder,
// served on 127.0.0.1 and opened page by page in headless Chromium.

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.jpg': 'image/jpeg',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
};

function run(command: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, NO_COLOR: '1' } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`${command} ${args.join(' ')} exited ${code}:\n${output}`)),
    );
  });
}

async function htmlFiles(dir: string, base = dir): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((e) =>
      e.isDirectory()
        ? htmlFiles(path.join(dir, e.name), base)
        : Promise.resolve(e.name.endsWith('.html') ? [path.relative(base, path.join(dir, e.name))] : []),
    ),
  );
  return nested.flat().sort();
}

function serve(root: string): Promise<Server> {
  const server = createServer((req, res) => {
    void (async () => {
      const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
      const file = path.join(root, pathname.endsWith('/') ? `${pathname}index.html` : pathname);
      if (!file.startsWith(root)) return void res.writeHead(403).end();
      const info = await stat(file).catch(() => null);
      if (!info?.isFile()) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
      createReadStream(file).pipe(res);
    })();
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

interface PageReport {
  problems: string[];
  ids: string[];
  links: string[];
}

let outDir: string;
let server: Server;
let origin: string;
let session: BrowserSession;
let pages: string[];
const reports = new Map<string, PageReport>();

beforeAll(async () => {
  outDir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-docs-site-'));
  await run(
    process.execPath,
    [path.join(REPO_DIR, 'node_modules/vitepress/bin/vitepress.js'), 'build', 'docs', '--outDir', outDir],
    REPO_DIR,
  );
  pages = await htmlFiles(outDir);
  server = await serve(outDir);
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  session = await launchBrowser({ browser: await findBrowser(), mode: 'screenshot', width: 1280, height: 900 });
  // A few pages at a time: each waits for the network to be idle for 500 ms, mostly idle time.
  const queue = [...pages];
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let file = queue.shift(); file !== undefined; file = queue.shift()) reports.set(`/${file}`, await visitSteadily(`/${file}`));
    }),
  );
}, 600_000);

afterAll(async () => {
  await session?.close();
  await new Promise((resolve) => server?.close(resolve));
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

/**
 * A visit that the machine's network changing under it spoiled (Chromium fails every request in
 * flight with ERR_NETWORK_CHANGED when an interface comes or goes, as podman's do while other
 * tests build images) says nothing about the page: it is made once more. Any other problem stands.
 */
async function visitSteadily(pathname: string): Promise<PageReport> {
  const first = await visit(pathname);
  const spoiled = first.problems.length > 0 && first.problems.every((problem) => problem.includes('ERR_NETWORK_CHANGED'));
  return spoiled ? visit(pathname) : first;
}

/** Opens one page: what went wrong on it, the ids it has, and the same-origin links it makes. */
async function visit(pathname: string): Promise<PageReport> {
  const page = await session.browser.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error instanceof Error ? error.message : String(error)}`));
  page.on('requestfailed', (request) => {
    // ERR_ABORTED is a request the page itself dropped (VitePress prefetches linked pages while idle
    // and navigation or close cancels them); a missing file is a 404 response, caught below.
    if (request.failure()?.errorText !== 'net::ERR_ABORTED')
      problems.push(`request failed: ${request.url()} (${request.failure()?.errorText})`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  try {
    const response = await page.goto(`${origin}${pathname}`, { waitUntil: 'networkidle0', timeout: 60_000 });
    if (!response?.ok()) problems.push(`HTTP ${response?.status()} for the page itself`);
    const found = await page.evaluate(() => ({
      ids: [...document.querySelectorAll('[id]')].map((e) => e.id),
      links: [...document.querySelectorAll('a[href]')].map((a) => (a as HTMLAnchorElement).href),
    }));
    // What happened while the page loaded and settled; anything after this belongs to closing it.
    return { problems: [...problems], ids: found.ids, links: found.links.filter((href) => href.startsWith(origin)) };
  } finally {
    await page.close();
  }
}

describe('the docs site', () => {
  it('builds every page of the sidebar, the home page and llms.txt', async () => {
    for (const group of SIDEBAR) for (const item of group.items) expect(pages, item.link).toContain(`${item.link.slice(1)}.html`);
    expect(pages).toContain('index.html');
    expect((await stat(path.join(outDir, 'llms.txt'))).size).toBeGreaterThan(1000);
    expect((await stat(path.join(outDir, 'ui-3d-reveal.jpg'))).size).toBeGreaterThan(1000);
  });

  it("renders every recipe's clips with Seekframe as the site builds, and each page shows them", async () => {
    for (const recipe of RECIPES) {
      const page = reports.get(`/recipes/${recipe.slug}.html`);
      expect(page, recipe.slug).toBeDefined();
      for (const clip of recipe.clips) {
        const probe = await run(
          'ffprobe',
          [
            '-v',
            'error',
            '-show_entries',
            'stream=codec_type,width,height:stream_tags=alpha_mode',
            '-of',
            'json',
            path.join(outDir, 'recipes', clip),
          ],
          REPO_DIR,
        );
        const streams = (
          JSON.parse(probe) as { streams: Array<{ codec_type: string; width?: number; height?: number; tags?: Record<string, string> }> }
        ).streams;
        expect(
          streams.find((stream) => stream.codec_type === 'video'),
          clip,
        ).toMatchObject({ width: 640, height: 360 });
        if (clip.endsWith('.webm')) expect(streams[0]?.tags?.alpha_mode ?? streams[0]?.tags?.ALPHA_MODE, clip).toBe('1');
        if (recipe.slug === 'video-with-audio')
          expect(
            streams.some((stream) => stream.codec_type === 'audio'),
            clip,
          ).toBe(true);
      }
    }
  });

  it('has a Markdown twin of every page and the whole manual in llms-full.txt', async () => {
    const full = await readFile(path.join(outDir, 'llms-full.txt'), 'utf8');
    for (const link of ['/index', ...SIDEBAR.flatMap((group) => group.items.map((item) => item.link))]) {
      const twin = await readFile(path.join(outDir, `${link.slice(1)}.md`), 'utf8');
      expect(twin, link).toMatch(/^# /m);
      // Includes are resolved, front matter is gone: what a reader gets is the page's text.
      expect(twin, link).not.toMatch(/^<!--@include:|^---\ntitle:/m);
      expect(full, link).toContain(`<!-- /${link.slice(1)}.md -->`);
      expect(full).toContain(twin.trim());
    }
    // The Lambda page is the adapter's README, included: its twin carries the README's text.
    expect(await readFile(path.join(outDir, 'deploy/aws-lambda.md'), 'utf8')).toContain('## Deployer permissions (IAM)');
  });

  it('opens every page in Chromium with no console error and no failed request', () => {
    const failures = [...reports]
      .filter(([, report]) => report.problems.length > 0)
      .map(([page, report]) => `${page}: ${report.problems.join('; ')}`);
    expect(failures).toEqual([]);
    expect(reports.size).toBeGreaterThan(20);
  });

  it('has no broken internal link: every linked page exists, and so does every #anchor', () => {
    const broken: string[] = [];
    for (const [page, report] of reports) {
      for (const href of report.links) {
        const url = new URL(href);
        const target = url.pathname.endsWith('/') ? `${url.pathname}index.html` : url.pathname;
        if (!target.endsWith('.html')) continue; // assets (the picture, llms.txt) are checked as requests
        const linked = reports.get(target);
        if (!linked) {
          broken.push(`${page} -> ${url.pathname} (no such page)`);
          continue;
        }
        const anchor = decodeURIComponent(url.hash.slice(1));
        if (anchor && !linked.ids.includes(anchor)) broken.push(`${page} -> ${url.pathname}#${anchor} (no such anchor)`);
      }
    }
    expect(broken).toEqual([]);
  });
});
