import { expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { forcedStopMessage, windsDownOnStop } from './listen-for-stops.js';

it('only a render (not --docker) winds down on a stop itself; every other command ends by the signal', () => {
  const argv = (...args: string[]) => ['node', 'seekframe', ...args];
  expect(windsDownOnStop(argv('render', '.', '--json'))).toBe(true);
  expect(windsDownOnStop(argv('render', '--batch', 'rows.json'))).toBe(true);
  expect(windsDownOnStop(argv('render', '.', '--docker'))).toBe(false);
  expect(windsDownOnStop(argv('serve', '--port', '0'))).toBe(false);
  expect(windsDownOnStop(argv('lint', 'render'))).toBe(false);
  expect(windsDownOnStop(argv('--version'))).toBe(false);
});

it('a forced stop says both signals and that nothing was written', () => {
  const first = new AbortController();
  first.abort(new Error('interrupted (Ctrl-C)'));
  expect(forcedStopMessage(first.signal, 'SIGINT')).toBe(
    'The render was cancelled (interrupted (Ctrl-C), then SIGINT again: stopped at once); no output was written.',
  );
});

it('a second signal after a kept command finished winding down still stops at once (143), never by the default effect', async () => {
  // A real process: signal handling cannot be observed in the test's own process.
  const script = `
    import { listenForStops } from ${JSON.stringify(fileURLToPath(new URL('./listen-for-stops.ts', import.meta.url)))};
    const stops = listenForStops(['node', 'seekframe', 'render', '.']);
    stops.keep();
    stops.onForcedExit((signal) => process.stdout.write('forced ' + signal + '\\n'));
    stops.signal.addEventListener('abort', () => {
      stops.release(); // what main does once the render's clean-up is done
      process.stdout.write('released\\n');
      setTimeout(() => {}, 10_000); // bin's exit window, made long
    });
    process.stdout.write('ready\\n');
    setTimeout(() => {}, 10_000);
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const seen = (text: string) =>
    new Promise<void>((resolve) => {
      const check = () => out.includes(text) && resolve();
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        check();
      });
      check();
    });
  const closed = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.on('close', (code, signal) => resolve([code, signal])),
  );
  await seen('ready');
  child.kill('SIGTERM');
  await seen('released');
  child.kill('SIGTERM');
  expect(await closed).toEqual([143, null]);
  expect(out).toContain('forced SIGTERM');
}, 30_000);
