import { expect, it } from 'vitest';
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
  expect(forcedStopMessage(first.signal, 'SIGINT')).toBe('The render was cancelled (interrupted (Ctrl-C), then SIGINT again: stopped at once); no output was written.');
});
