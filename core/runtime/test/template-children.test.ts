import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openReady, startRuntimeFixture, type RuntimeFixture } from './support/runtime-fixture.js';

/**
 * HyperFrames-format children (content inside <template>): scripts run in document order with
 * external ones awaited (a slow one first must still run first), the host's <head> libraries are
 * loaded into the child first, and each instance has its own DOM and variables.
 */
let fx: RuntimeFixture;
let dir: string;

const HOST = `<!doctype html><html data-composition-id="main" data-width="160" data-height="90" data-duration="4">
<head><script src="/lib.js"></script><style>body{margin:0}</style></head><body>
<div id="a" data-composition-id="a" data-composition-src="tpl.html" data-start="0" data-variable-values='{"label":"AAA"}' style="position:absolute;left:0;top:0"></div>
<div id="b" data-composition-id="b" data-composition-src="tpl.html" data-start="0" data-variable-values='{"label":"BBB"}' style="position:absolute;left:80px;top:0"></div>
</body></html>`;

const CHILD = `<!doctype html><html data-composition-variables='[{"id":"label","type":"string","label":"Label","default":"?"}]'>
<head><script>window.order = [];</script></head>
<body><template id="tpl-template">
  <div id="root" data-composition-id="tpl" data-width="80" data-height="45"><p class="x"></p></div>
  <script src="/slow.js"></script>
  <script>window.order.push('inline sees ' + typeof window.LIB + ' ' + window.SLOW);
    document.querySelector('.x').textContent = window.__hyperframes.getVariables().label;</script>
  <script src="/fast.js"></script>
</template></body></html>`;

beforeAll(async () => {
  fx = await startRuntimeFixture();
  dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-tpl-'));
  await writeFile(path.join(dir, 'slow.js'), "window.SLOW = 'slow-ran'; window.order.push('slow');");
  await writeFile(path.join(dir, 'fast.js'), "window.order.push('fast');");
  fx.server.routes.set('/lib.js', "window.LIB = { from: 'host head' };");
  fx.server.routes.set('/slow.js', { file: path.join(dir, 'slow.js'), delayMs: 300 });
  fx.server.routes.set('/fast.js', { file: path.join(dir, 'fast.js') });
  fx.server.routes.set('/host.html', HOST);
  fx.server.routes.set('/tpl.html', CHILD);
});
afterAll(async () => {
  await fx?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('<template> sub-composition files', () => {
  it('run their scripts in order after the host head libraries, each instance with its own DOM and variables', async () => {
    const page = await openReady(fx, '/host.html');
    const child = (sel: string) =>
      page.evaluate((s) => {
        const win = document.querySelector<HTMLIFrameElement>(`${s} iframe`)!.contentWindow as Window & { order: string[] };
        return {
          order: win.order,
          text: win.document.querySelector('.x')!.textContent,
          template: win.document.querySelectorAll('template').length,
        };
      }, sel);
    expect(await child('#a')).toEqual({ order: ['slow', 'inline sees object slow-ran', 'fast'], text: 'AAA', template: 0 });
    expect(await child('#b')).toEqual({ order: ['slow', 'inline sees object slow-ran', 'fast'], text: 'BBB', template: 0 });
    // The host without a size took the child's (this fixture server's config says 160x90 for every file).
    expect(await page.$eval('#b', (el) => [el.getBoundingClientRect().width, el.getBoundingClientRect().height])).toEqual([160, 90]);
    expect(await page.evaluate(() => window.__seekframe!.warnings())).toEqual([]);
    await page.close();
  });
});
