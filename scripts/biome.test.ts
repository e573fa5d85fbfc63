import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIOME = fileURLToPath(new URL('../node_modules/@biomejs/biome/bin/biome', import.meta.url));

describe('formatting and lint (biome.jsonc)', () => {
  it('the repository passes `biome ci`: formatted at 140 columns and free of lint errors (fix with npm run format)', async () => {
    const result = await run(process.execPath, [BIOME, 'ci', '--colors=off', '--max-diagnostics=20', '.'], {
      cwd: ROOT,
      maxBuffer: 16 * 1024 * 1024,
    }).then(
      ({ stdout, stderr }) => ({ code: 0, output: `${stdout}${stderr}` }),
      (error: { code?: number; stdout?: string; stderr?: string }) => ({
        code: error.code ?? 1,
        output: `${error.stdout ?? ''}${error.stderr ?? ''}`,
      }),
    );
    expect(result.code, result.output.slice(-4000)).toBe(0);
  }, 120_000);
});
