import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@seekframe/composition';
import { checkProperty } from '../../../scripts/property-runs.js';
import { main } from '../src/main.js';

/**
 * Generated command lines for `render` and `lint`: whatever the flags and values, the CLI ends
 * with exit 1 or 2 and, under --json, one coded error line (`{"type":"error","error":{code}}`) -
 * never an uncaught exception, an "internal-error", a stack, or a hang. The project never exists,
 * so nothing renders (no browser); flags that reach other machinery (--docker, --gpu) are left out.
 */
const FLAGS = [
  '-o',
  '--output',
  '-f',
  '--format',
  '--fps',
  '--quality',
  '--crf',
  '--video-bitrate',
  '--gif-loop',
  '--scale',
  '--hls-segment-seconds',
  '--captions',
  '--captions-variable',
  '--video-frame-format',
  '--workers',
  '--browser-gpu',
  '--no-browser-gpu',
  '--hdr',
  '--sdr',
  '--capture-mode',
  '--variables',
  '--variables-file',
  '--strict-variables',
  '--network',
  '--strict',
  '--max-frames',
  '--max-render-seconds',
  '--max-pixels',
  '--max-workers',
  '--batch',
  '--batch-resume',
  '--batch-concurrency',
  '--batch-fail-fast',
  '--bogus',
  '-x',
];
const VALUES = fc.oneof(
  fc.constantFrom(
    '30',
    '0',
    '-1',
    '1e9',
    'NaN',
    '30000/1001',
    '1/0',
    'auto',
    'mp4',
    'gif',
    'png-sequence',
    'hls',
    'high',
    '',
    ' ',
    '{}',
    '[]',
  ),
  fc.integer({ min: -1000, max: 100000 }).map(String),
  fc.double().map(String),
  fc.json({ maxDepth: 2 }),
  fc.string({ maxLength: 20 }),
);
const ARGUMENT = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(fc.constantFrom(...FLAGS), VALUES) },
  { weight: 1, arbitrary: fc.tuple(VALUES) },
);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-cli-fuzz-'));
  await writeFile(path.join(dir, 'rows.json'), '[{"title":"a"}]');
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(['node', 'seekframe', ...args], {
    cwd: dir,
    env: { NO_COLOR: '1', PATH: process.env.PATH },
    stdout: { write: (chunk: string) => ((stdout += chunk), true) },
    stderr: { write: (chunk: string) => ((stderr += chunk), true) },
  });
  return { code, stdout, stderr };
}

/** The coded error the run ended with, or a sentence saying what was wrong instead. */
function codedError({ code, stdout, stderr }: { code: number; stdout: string; stderr: string }): string {
  if (code !== 1 && code !== 2) return `exit ${code}`;
  const last = stdout.trim().split('\n').at(-1) ?? '';
  let line: { type?: string; error?: { code?: string; message?: string } };
  try {
    line = JSON.parse(last);
  } catch {
    return `no JSON error line (stdout ${JSON.stringify(stdout.slice(-200))}, stderr ${JSON.stringify(stderr.slice(-200))})`;
  }
  if (line.type !== 'error' || !line.error?.code) return `not an error line: ${last.slice(0, 200)}`;
  if (!(ERROR_CODES as readonly string[]).includes(line.error.code)) return `unknown code ${line.error.code}`;
  if (line.error.code === 'internal-error') return `internal-error: ${line.error.message}`;
  if (/\n\s+at /.test(stderr)) return 'a stack trace on stderr';
  return 'ok';
}

describe('CLI arguments, generated', () => {
  it('render and lint with any flags and values end in a coded error (exit 1 or 2), in process', async () => {
    await checkProperty(
      'render/lint arguments',
      fc.asyncProperty(fc.constantFrom('render', 'lint'), fc.array(ARGUMENT, { maxLength: 6 }), async (command, pairs) => {
        const args = [command, path.join(dir, 'no-such-project'), ...pairs.flat(), '--json'];
        const outcome = codedError(await run(args));
        if (outcome !== 'ok') throw new Error(`${outcome} for: seekframe ${args.join(' ')}`);
      }),
      150,
    );
  });

  it('found by fuzzing: --json with an unknown option or command answers a coded error line', async () => {
    for (const args of [
      ['render', 'x', '--bogus', '--json'],
      ['frobnicate', '--json'],
      ['render', '--json'],
    ]) {
      expect(codedError(await run(args)), args.join(' ')).toBe('ok');
    }
  });

  it('a handful through a real CLI process (from the sources): the same coded errors, exit 1 or 2, no stack', async () => {
    const exec = promisify(execFile);
    const tsx = pathToFileURL(
      path.join(path.dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist', 'loader.mjs'),
    ).href;
    const launcher = fileURLToPath(new URL('../scripts/run-from-source.mjs', import.meta.url));
    // Few: each process compiles the CLI from its sources (seconds on a busy machine).
    const cases = fc.sample(fc.array(ARGUMENT, { maxLength: 4 }), { seed: 34, numRuns: 1 });
    for (const pairs of [[['--fps', 'abc']], [['--bogus', '1']], ...cases]) {
      const args = ['render', path.join(dir, 'no-such-project'), ...pairs.flat(), '--json'];
      const outcome = await exec(process.execPath, ['--import', tsx, '--conditions=source', launcher, ...args], {
        cwd: dir,
        env: { PATH: process.env.PATH, NO_COLOR: '1' },
      }).then(
        ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
        (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
      );
      expect(codedError(outcome), `seekframe ${args.join(' ')}`).toBe('ok');
    }
  });
});
