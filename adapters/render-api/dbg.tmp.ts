import { serveLocal, contractCompositionDir, seekframeCli } from '@seekframe/render-api/node';
import { findBrowser, launchBrowser } from '@seekframe/engine';
const api = await serveLocal({ compositionDir: contractCompositionDir(), runner: { workers: 1, cli: seekframeCli({ fromSource: true }) } });
const s = await launchBrowser({ browser: await findBrowser(), mode: 'screenshot', width: 800, height: 700 });
const page = await s.browser.newPage();
page.on('console', (m) => console.log('console', m.type(), m.text()));
page.on('pageerror', (e) => console.log('pageerror', e.message));
page.on('response', (r) => console.log('resp', r.status(), r.url()));
await page.goto(api.url, { waitUntil: 'load' });
await page.waitForFunction(() => Number(document.body.dataset.playerReady ?? '0') >= 1);
await page.click('#render');
for (let i = 0; i < 15; i++) { await new Promise((r) => setTimeout(r, 1000)); console.log(await page.$eval('#status', (e) => e.textContent)); }
await s.close(); await api.close();
