import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExportedFiles } from './composition-files/serve-exported-files.js';
import { createNodeCompositionFiles } from './composition-files-node.js';
import { exportCompositionFiles, type ExportedComposition } from './export-composition-files.js';

const BASE = '/preview/composition/';
const GSAP_CDN = 'https://cdn.jsdelivr.net/npm/gsap@3/dist/gsap.min.js';
const FONTS = 'https://fonts.googleapis.com/css2?family=Poppins:wght@700';
const IMAGE = 'https://example.test/x.png';

let dir: string;
let out: string;
let exported: ExportedComposition;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-export-'));
  out = await mkdtemp(path.join(os.tmpdir(), 'seekframe-export-out-'));
  await writeFile(
    path.join(dir, 'index.html'),
    `<!doctype html><html data-composition-id="e" data-width="16" data-height="9" data-duration="1"><head>
<link rel="stylesheet" href="${FONTS}"><link rel="stylesheet" href="style.css">
<script src="node_modules/gsap/dist/gsap.min.js"></script><script src="${GSAP_CDN}"></script></head>
<body><img src="${IMAGE}"></body></html>`,
  );
  await writeFile(path.join(dir, 'style.css'), 'p { font-family: Lato }');
  exported = await exportCompositionFiles({ root: dir, outDir: path.join(out, 'prepared'), base: BASE });
}, 60_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await rm(out, { recursive: true, force: true });
});

describe('exportCompositionFiles', () => {
  it("stores every answer the pages lead to: the folder's files, node_modules/ files, installed CDN files, Google Fonts and every face they list", () => {
    const files = Object.keys(exported.manifest.files);
    expect(files).toEqual(expect.arrayContaining(['index.html', 'style.css', 'node_modules/gsap/dist/gsap.min.js']));
    expect(files.some((f) => /^__seekframe\/fonts\/poppins\/poppins-latin-700-normal\.woff2$/.test(f))).toBe(true);
    // Lato is named in CSS: every face of the package, as the render would list them.
    expect(files.filter((f) => f.startsWith('__seekframe/fonts/lato/')).length).toBeGreaterThan(10);
    expect(Object.keys(exported.manifest.remote).sort()).toEqual([GSAP_CDN, FONTS].sort());
    expect(exported.notLocal).toEqual([IMAGE]);
  });

  it('names the installed npm packages the composition uses (a node_modules/ path and a CDN URL of the same package)', () => {
    expect(exported.packages).toEqual(['gsap']);
  });

  it('served by createExportedFiles, gives the same answers as the rule itself', async () => {
    const served = createExportedFiles(
      exported.manifest,
      async (file) => new Response(await readFile(path.join(out, 'prepared', file.file))),
    );
    const live = createNodeCompositionFiles({ root: dir, base: BASE });
    for (const route of [
      'index.html',
      'style.css',
      'node_modules/gsap/dist/gsap.min.js',
      `__seekframe/remote?url=${encodeURIComponent(FONTS)}`,
      `__seekframe/remote?url=${encodeURIComponent(GSAP_CDN)}`,
    ]) {
      const request = (): Request => new Request(`http://x${BASE}${route}`);
      const [a, b] = await Promise.all([served(request()), live(request())]);
      expect({ route, status: a.status, type: a.headers.get('content-type') }).toEqual({
        route,
        status: 200,
        type: b.headers.get('content-type'),
      });
      expect(Buffer.from(await a.arrayBuffer()).equals(Buffer.from(await b.arrayBuffer())), route).toBe(true);
    }
    const image = await served(
      new Request(`http://x${BASE}__seekframe/remote?url=${encodeURIComponent(IMAGE)}`, { headers: { 'sec-fetch-dest': 'image' } }),
    );
    expect([image.status, image.headers.get('location')]).toEqual([307, IMAGE]);
    expect(exported.manifest.redirect).toEqual([IMAGE]);
    // A URL the pages do not name is no redirect (an open redirect on the deployment's origin otherwise).
    const madeUp = await served(
      new Request(`http://x${BASE}__seekframe/remote?url=${encodeURIComponent('https://evil.test/x.js')}`, {
        headers: { 'sec-fetch-dest': 'script' },
      }),
    );
    expect([madeUp.status, madeUp.headers.get('location')]).toEqual([404, null]);
    expect((await served(new Request(`http://x${BASE}missing.js`))).status).toBe(404);
    expect((await served(new Request(`http://x${BASE}`))).status).toBe(200);
  });
});
