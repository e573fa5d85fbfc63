import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// AGENTS.md at the root tells agents where things are and which commands to run. A moved file or
// a renamed script would send them astray, so every repository path and npm script it names is
// checked here.

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TOP = /^(core|adapters|apps|compositions|bench|docs|tools|scripts|infra)\//;

describe('AGENTS.md', () => {
  it('names only paths that exist', async () => {
    const text = await readFile(path.join(REPO, 'AGENTS.md'), 'utf8');
    const named = [...text.matchAll(/`([^`\s]+)`/g)].map((m) => m[1]!.replace(/[.,:;]$/, '')).filter((p) => TOP.test(p));
    const inBlocks = [...text.matchAll(/^(?:bash|npx vitest run) (\S+)/gm)].map((m) => m[1]!).filter((p) => TOP.test(p));
    const paths = [...new Set([...named, ...inBlocks])];
    expect(paths.length).toBeGreaterThan(10);
    expect(paths.filter((p) => !existsSync(path.join(REPO, p)))).toEqual([]);
  });

  it('names only npm scripts the root package.json has', async () => {
    const text = await readFile(path.join(REPO, 'AGENTS.md'), 'utf8');
    const { scripts } = JSON.parse(await readFile(path.join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    const named = [...text.matchAll(/npm run ([\w:-]+)/g)].map((m) => m[1]!);
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((name) => !(name in scripts))).toEqual([]);
  });
});
