/**
 * Preview studio page load: starts the real `seekframe preview` (the built CLI) on a project and
 * opens its page in Chromium several times, reporting the median time from navigation start to
 * DOMContentLoaded, to the load event, and to "studio ready" (the composition is loaded in the
 * player and the timeline is drawn), plus the bytes of the page's own scripts.
 *
 *   npx tsx bench/preview-load.ts [project] [--runs 7] [--screenshot out.png [--select <clip id>]]
 *
 * Default project: compositions/ui-3d-reveal. Uses the built packages (scripts/setup.sh builds them).
 */
import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findBrowser, launchBrowser } from '@seekframe/engine';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const project = resolve(
  args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--')) ?? join(repoRoot, 'compositions/ui-3d-reveal'),
);
const runs = Number(option('--runs') ?? 7);
const screenshot = option('--screenshot');
const selectClip = option('--select');

const cli = spawn(
  process.execPath,
  [process.env.SEEKFRAME_CLI ?? join(repoRoot, 'core/cli/bin/seekframe.js'), 'preview', project, '--port', '0'],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
const url = await new Promise<string>((done, fail) => {
  let out = '';
  cli.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    const match = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
    if (match) done(match[1]!);
  });
  cli.once('exit', (code) => fail(new Error(`seekframe preview exited with ${code}: ${out}`)));
});

const session = await launchBrowser({ browser: await findBrowser(), mode: 'screenshot', width: 1280, height: 860 });
const rows: Array<{ domContentLoaded: number; load: number; ready: number; scriptBytes: number }> = [];
try {
  for (let run = 0; run < runs; run++) {
    const page = await session.browser.newPage();
    await page.setViewport({ width: 1280, height: 860 });
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'ready', { timeout: 60_000 });
    const ready = await page.evaluate(() => performance.now());
    const timing = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      const scripts = performance
        .getEntriesByType('resource')
        .filter((r) => /\/__seekframe\/preview\/(app|seekframe-player)\.js$/.test(r.name)) as PerformanceResourceTiming[];
      return {
        domContentLoaded: nav.domContentLoadedEventEnd,
        load: nav.loadEventEnd,
        scriptBytes: scripts.reduce((sum, r) => sum + r.decodedBodySize, 0) + nav.decodedBodySize,
      };
    });
    rows.push({ ...timing, ready });
    if (screenshot && run === runs - 1) {
      if (selectClip) {
        // As a user would: click the block a quarter in, so the player shows it outlined.
        const box = await (await page.$(`.tl-clip[data-clip-id="${selectClip}"]`))?.boundingBox();
        if (box) await page.mouse.click(box.x + box.width / 4, box.y + box.height / 2);
        await page.waitForSelector('#inspector [data-resolved="start"]');
        await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      }
      await page.screenshot({ path: resolve(screenshot) as `${string}.png` });
    }
    await page.close();
  }
} finally {
  await session.close();
  cli.kill('SIGTERM');
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
console.log(`preview page load, ${project.replace(repoRoot + '/', '')}, ${runs} runs (median, first run included):`);
console.log(`  DOMContentLoaded ${median(rows.map((r) => r.domContentLoaded)).toFixed(0)} ms`);
console.log(`  load event       ${median(rows.map((r) => r.load)).toFixed(0)} ms`);
console.log(
  `  studio ready     ${median(rows.map((r) => r.ready)).toFixed(0)} ms (first run ${rows[0]!.ready.toFixed(0)} ms, slowest ${Math.max(...rows.map((r) => r.ready)).toFixed(0)} ms)`,
);
console.log(`  page + scripts   ${(rows[0]!.scriptBytes / 1024).toFixed(1)} KiB uncompressed`);
