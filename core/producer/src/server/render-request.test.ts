import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRenderRequest } from './render-request.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'seekframe-request-'));
  await writeFile(
    path.join(root, 'index.html'),
    '<html data-composition-id="m" data-width="160" data-height="90" data-duration="1"></html>',
  );
});
afterAll(async () => rm(root, { recursive: true, force: true }));

describe('parseRenderRequest', () => {
  it('accepts strict (silent-blank problems become errors) and checks its type through the render options', async () => {
    const limits = { root, maxHtmlBytes: 1 << 20 };
    expect((await parseRenderRequest({ projectDir: '.', strict: true }, limits)).options.strict).toBe(true);
    expect((await parseRenderRequest({ projectDir: '.' }, limits)).options.strict).toBe(false);
    await expect(parseRenderRequest({ projectDir: '.', strict: 'yes' }, limits)).rejects.toMatchObject({ code: 'invalid-options' });
  });
});
