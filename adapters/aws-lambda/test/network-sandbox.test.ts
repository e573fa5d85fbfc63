import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { rm, writeFile } from 'node:fs/promises';
import { producerCore } from '@seekframe/producer/distributed';
import { runLocalRender } from '../src/local/run-local-render.js';
import { systemRuntime } from '@seekframe/producer/distributed';
import { createLocalFolderStorage } from '@seekframe/producer';
import { tempDir } from './support/media.js';

/**
 * A page rendered on Lambda is untrusted: inside a chunk it must not reach anything but its own
 * project. A "secret" server on a loopback port stands in for the function's neighbours (the
 * metadata service, private addresses); the page tries it from a script, a fetch and an image.
 */
describe('network sandbox inside distributed renders', () => {
  let secret: http.Server;
  let hits: string[];
  let work: string;

  beforeAll(async () => {
    hits = [];
    secret = http.createServer((req, res) => {
      hits.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' });
      res.end('secret');
    });
    await new Promise<void>((resolve) => secret.listen(0, '127.0.0.1', resolve));
    work = await tempDir('seekframe-lambda-sandbox-');
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => secret?.close(() => resolve()));
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('no request from the page reaches a loopback server, whatever the render outcome', async () => {
    const origin = `http://127.0.0.1:${(secret.address() as AddressInfo).port}`;
    const project = path.join(work, 'project');
    await import('node:fs/promises').then((fs) => fs.mkdir(project, { recursive: true }));
    await writeFile(
      path.join(project, 'index.html'),
      `<!doctype html>
<html data-composition-id="probe" data-width="160" data-height="90" data-duration="0.5" data-fps="10">
<head><style>html,body{margin:0;background:#123}</style></head>
<body>
<div style="position:absolute;left:10px;top:10px;width:20px;height:20px;background:#fff"></div>
<script>
  fetch('${origin}/from-fetch').catch(() => {});
  new Image().src = '${origin}/from-image';
  const x = new XMLHttpRequest(); x.open('GET', '${origin}/from-xhr'); x.onerror = () => {}; x.send();
</script>
</body></html>
`,
    );
    await runLocalRender({
      store: createLocalFolderStorage({ root: path.join(work, 'bucket') }),
      core: producerCore,
      runtime: systemRuntime(),
      workRoot: path.join(work, 'tmp'),
      projectDir: project,
      request: { quality: 'draft' },
      chunking: { chunkCount: 1 },
      sleep: async () => undefined,
    }).catch(() => undefined);
    expect(hits).toEqual([]);
  }, 300_000);
});
