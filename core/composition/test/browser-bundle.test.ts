import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';
import { build } from 'esbuild';
import { expect, test } from 'vitest';

const entry = fileURLToPath(new URL('../src/index.ts', import.meta.url));

/**
 * The package must run in browsers (runtime, player): bundle it for the browser, which fails on
 * any `node:` import, then run it in a bare JS realm without Node or DOM globals.
 */
test('bundles for the browser and runs without Node or DOM globals', async () => {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    globalName: 'seekframeComposition',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  expect(result.errors).toEqual([]);
  const code = result.outputFiles[0]?.text ?? '';
  expect(code).not.toMatch(/require\(["']node:/);

  const files: Record<string, string> = {
    'index.html': `<html data-composition-id="m" data-width="64" data-height="36" data-duration="2"><body>
<div data-composition-id="c" data-composition-src="c.html" data-variable-values='{"n":"x"}'></div></body></html>`,
    'c.html': `<html data-composition-id="c" data-width="64" data-height="36" data-duration="1"
 data-composition-variables='[{"id":"n","type":"number","label":"N","default":1}]'></html>`,
  };
  const sandbox: Record<string, unknown> = { files, output: undefined };
  runInNewContext(
    `${code}
     output = seekframeComposition.lintProject('index.html', { readFile: async (p) => files[p] })
       .then((findings) => findings.map(seekframeComposition.formatFinding));`,
    sandbox,
  );
  const lines = await (sandbox.output as Promise<string[]>);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(
    /^index\.html:2:\d+ warning subcomposition\/variable-type data-variable-values on "c": variable "n" must be a number/,
  );
  expect(runInNewContext(`typeof process + typeof window + typeof document`, sandbox)).toBe('undefinedundefinedundefined');
});

test('the runtime-side helpers bundle without parse5 and zod (package is side-effect free)', async () => {
  const result = await build({
    stdin: {
      contents: `import { resolveTiming, resolveVariables, parseStartExpression } from '@seekframe/composition';
        globalThis.out = [resolveTiming, resolveVariables, parseStartExpression];`,
      resolveDir: fileURLToPath(new URL('.', import.meta.url)),
      loader: 'ts',
    },
    bundle: true,
    platform: 'browser',
    conditions: ['source'],
    minify: true,
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.text ?? '';
  expect(code).toContain('data-start');
  expect(code.length).toBeLessThan(20_000);
  // Neither library's own strings are in it (both are in a bundle that imports lintProject).
  expect(code).not.toContain('ZodError');
  expect(code).not.toContain('abandoned-head-element-child');
});
