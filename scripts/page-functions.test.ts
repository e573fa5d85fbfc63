import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// A function handed to puppeteer (`page.evaluate(fn)`, `waitForFunction`, `evaluateOnNewDocument`)
// runs in the page as its source text. Code run from TypeScript sources (tsx, vitest: esbuild with
// keepNames) wraps every named function inside it in a `__name(...)` helper that only exists in
// Node, so such a page function throws `__name is not defined` there, and only there: a built
// dist/ has no helper. Inside a page function, helpers are object methods (never wrapped) or code
// inline; this test finds the named ones.

const run = promisify(execFile);
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PAGE_CALLS = new Set(['evaluate', 'evaluateHandle', 'waitForFunction', 'evaluateOnNewDocument', '$eval', '$$eval']);

/** Names of the functions and classes a page function declares that esbuild's keepNames would wrap. */
export function namedInside(source: string, file = 'x.ts'): string[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const inPageFunction = (fn: ts.Node): void => {
    const visit = (node: ts.Node): void => {
      if (ts.isVariableDeclaration(node) && node.initializer && ts.isIdentifier(node.name)) {
        const init = node.initializer;
        if (ts.isArrowFunction(init) || ts.isFunctionExpression(init) || ts.isClassExpression(init)) found.push(node.name.text);
      }
      if ((ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node)) && node.name) found.push(node.name.text);
      ts.forEachChild(node, visit);
    };
    ts.forEachChild(fn, visit);
  };
  // A page function may also be passed by name: a function of the same file.
  const byName = new Map<string, ts.Node>();
  const collect = (node: ts.Node): void => {
    if (ts.isFunctionDeclaration(node) && node.name) byName.set(node.name.text, node);
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
      if (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer)) byName.set(node.name.text, node.initializer);
    }
    ts.forEachChild(node, collect);
  };
  collect(sf);
  const walk = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && PAGE_CALLS.has(node.expression.name.text)) {
      const fnArg = node.arguments.find((arg) => ts.isArrowFunction(arg) || ts.isFunctionExpression(arg));
      if (fnArg) inPageFunction(fnArg);
      const named = node.arguments.find((arg) => ts.isIdentifier(arg) && byName.has(arg.text));
      if (named) inPageFunction(byName.get((named as ts.Identifier).text)!);
    }
    ts.forEachChild(node, walk);
  };
  walk(sf);
  return found;
}

describe('functions that run in the page', () => {
  it('finds a named helper inside a page function, and not one outside it', () => {
    const source = `
      const outside = () => 1;
      page.evaluate(() => { const inside = (x) => x; function declared() {} const ok = { method() {} }; return inside(1); });
      page.waitForFunction(function () { class Local {} return true; });
      function byReference() { const helper = () => 2; return helper(); }
      frame.evaluate(byReference);
    `;
    expect(namedInside(source)).toEqual(['inside', 'declared', 'Local', 'helper']);
  });

  it('declare no named function or class in the product sources (they would throw __name is not defined when run from sources)', async () => {
    const { stdout } = await run('git', ['ls-files', 'core/*/src/**.ts', 'adapters/*/src/**.ts', 'apps/*/src/**.ts'], { cwd: REPO });
    const files = stdout.split('\n').filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.endsWith('.d.ts'));
    expect(files.length).toBeGreaterThan(100);
    const offenders: string[] = [];
    for (const file of files) {
      const source = await readFile(path.join(REPO, file), 'utf8');
      if (!/\.(evaluate|evaluateHandle|waitForFunction|evaluateOnNewDocument|\$eval|\$\$eval)\(/.test(source)) continue;
      for (const name of namedInside(source, file)) offenders.push(`${file}: ${name}`);
    }
    expect(offenders).toEqual([]);
  });
});
