import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SeekframeError } from '@seekframe/composition';
import { renderBatch, type BatchOptionsInput } from '../src/index.js';
import { batchProject, eventLog } from './helpers/batch-project.js';

let temp: Awaited<ReturnType<typeof batchProject>>;
beforeAll(async () => {
  temp = await batchProject();
});
afterAll(async () => temp?.cleanup());

/** Runs a batch that must be refused before any row renders; returns the error. */
async function refused(options: Omit<BatchOptionsInput, 'render' | 'cwd'> & { render?: Record<string, unknown> }): Promise<SeekframeError> {
  const log = eventLog();
  const folder = `refused-${Math.random().toString(36).slice(2)}`;
  const error = await renderBatch(
    {
      output: `${folder}/{index}.mp4`,
      ...options,
      render: { projectDir: temp.project, workers: 1, ...options.render },
      batchFile: 'rows.json',
      cwd: temp.dir,
    },
    log.push,
  ).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SeekframeError);
  // Nothing started: one error event, no manifest, no output folder.
  expect(log.events).toEqual([{ type: 'error', error: (error as SeekframeError).toJSON() }]);
  expect(await readdir(path.join(temp.dir, folder)).catch(() => 'absent')).toBe('absent');
  return error as SeekframeError;
}

describe('renderBatch refuses a bad batch before rendering anything', () => {
  it('a malformed file', async () => {
    const error = await refused({ batch: { items: [] } });
    expect(error.code).toBe('invalid-batch');
    expect(error.message).toMatch(/rows\.json cannot be rendered[\s\S]*file: must be a JSON array of rows/);
  });

  it('lists every bad row: not an object, nested value, missing placeholder key', async () => {
    const error = await refused({ batch: [{ title: 'ok' }, 7, { title: ['a'] }, { bg: '#ffffff' }], output: 'x/{title}.mp4' });
    expect(error.code).toBe('invalid-batch');
    expect(error.details?.problems).toEqual([
      { index: 1, reason: expect.stringMatching(/number 7, not an object/) },
      { index: 2, reason: expect.stringMatching(/"title" is an array/) },
      { index: 3, reason: expect.stringMatching(/no "title" for the \{title\} placeholder/) },
    ]);
    expect(error.message).toMatch(/3 bad rows/);
    expect(error.message).toMatch(/row 1: .*\n.*row 2: .*\n.*row 3: /);
  });

  it('duplicate output paths', async () => {
    const error = await refused({ batch: [{ title: 'A b' }, { title: 'A/b' }], output: 'dup/{title}.mp4' });
    expect(error.details?.problems).toEqual([{ index: 1, reason: expect.stringMatching(/dup\/A-b\.mp4, like row 0/) }]);
  });

  it('with strictVariables, any row variable issue', async () => {
    const error = await refused({ batch: [{ bg: '#fff' }, { title: 'ok' }, { colour: 'red' }], render: { strictVariables: true } });
    expect(error.details?.problems).toEqual([
      { index: 0, reason: expect.stringMatching(/"bg" must be a color/) },
      { index: 2, reason: expect.stringMatching(/"colour" is not declared/) },
    ]);
  });

  it('variables given besides rows, and bad batch options', async () => {
    expect((await refused({ batch: [{}], render: { variables: { title: 'x' } } })).message).toMatch(
      /variables and batch rows exclude each other/,
    );
    expect((await refused({ batch: [{}], render: { projectDir: undefined } })).message).toMatch(/projectDir/);
    const concurrency = await refused({ batch: [{}], concurrency: 0 });
    expect(concurrency).toMatchObject({ code: 'invalid-options', message: expect.stringMatching(/concurrency must be 1-16/) });
  });
});
