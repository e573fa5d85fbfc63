import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from 'seekframe';
import { COMMAND_GUIDES, FLAG_GUIDES } from '../scripts/cli-flag-guides.js';
import { anchor, commandHelps, flagsIn } from '../scripts/cli-reference.js';
import { generatedFiles } from '../scripts/generated-files.js';
import { DOCS_DIR, REPO_DIR } from '../scripts/paths.js';

/** The site's pages: the .md files under docs/ minus what VitePress does not build (see srcExclude). */
async function markdownPages(dir: string): Promise<string[]> {
  const skip = new Set(['node_modules', 'dist', 'pending', 'agents', 'scripts', 'test', '.vitepress']);
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((e) =>
      e.isDirectory()
        ? skip.has(e.name)
          ? []
          : markdownPages(path.join(dir, e.name))
        : Promise.resolve(e.name.endsWith('.md') ? [path.join(dir, e.name)] : []),
    ),
  );
  return nested.flat();
}

/** `seekframe <args>` in-process, output captured (not a terminal, so help wraps at 80 columns). */
async function seekframe(args: string[], cwd = REPO_DIR): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(['node', 'seekframe', ...args], {
    stdout: { write: (chunk: string) => out.push(chunk), isTTY: false },
    stderr: { write: (chunk: string) => err.push(chunk), isTTY: false },
    cwd,
    env: { PATH: process.env.PATH },
  });
  return { code, stdout: out.join(''), stderr: err.join('') };
}

/**
 * TypeDoc reads the packages' sources for the API reference: about 15 s of CPU, which a busy
 * 2-core machine can stretch to minutes of wall time.
 */
const TYPEDOC_ON_A_BUSY_MACHINE_MS = 600_000;

describe('generated docs', () => {
  it(
    'every generated file is current (run npm run docs:generate and commit the result if not)',
    async () => {
      for (const file of await generatedFiles()) {
        const committed = await readFile(path.join(REPO_DIR, file.path), 'utf8').catch(() => '(missing)');
        expect(committed, file.path).toBe(file.content);
      }
    },
    TYPEDOC_ON_A_BUSY_MACHINE_MS,
  );

  it('the CLI reference holds exactly what `seekframe <command> --help` prints, and names every flag it lists', async () => {
    const reference = await readFile(path.join(DOCS_DIR, 'reference/cli.md'), 'utf8');
    const helps = await commandHelps();
    expect(helps.map((h) => h.path.join(' '))).toEqual(expect.arrayContaining(['render', 'serve', 'lint', 'init', 'lambda render']));
    for (const { path: words } of helps) {
      const run = await seekframe([...words, '--help']);
      expect(run.code, `seekframe ${words.join(' ')} --help`).toBe(0);
      expect(reference, `the help of seekframe ${words.join(' ')}`).toContain(run.stdout.trimEnd());
      const flags = flagsIn(run.stdout);
      expect(flags.length, `flags of seekframe ${words.join(' ')}`).toBeGreaterThan(0);
      const section = reference.split(`\n## seekframe${words.length ? ` ${words.join(' ')}` : ''} {#`)[1]!.split('\n## ')[0]!;
      for (const flag of flags) expect(section, `seekframe ${words.join(' ')} ${flag}`).toMatch(new RegExp(`(^|[ ,])${flag}\\b`, 'm'));
    }
  });

  it('gives every flag of every command its own anchor, and links only flags and commands that exist', async () => {
    const reference = await readFile(path.join(DOCS_DIR, 'reference/cli.md'), 'utf8');
    const helps = await commandHelps();
    const known = new Set<string>();
    for (const { path: words, help } of helps) {
      known.add(words.join(' '));
      for (const flag of flagsIn(help).filter((f) => f.startsWith('--') && f !== '--help')) {
        known.add(`${words.join(' ')} ${flag}`);
        expect(reference, `seekframe ${words.join(' ')} ${flag}`).toContain(`id="${anchor(words)}-${flag.slice(1)}"`);
      }
    }
    expect(Object.keys(COMMAND_GUIDES).filter((command) => !known.has(command))).toEqual([]);
    expect(Object.keys(FLAG_GUIDES).filter((flag) => !known.has(flag))).toEqual([]);
  });

  it('finds the flags of a help text', () => {
    const help =
      'Usage: x\n\nOptions:\n  -o, --output <path>  out\n                       wrapped --not-a-flag\n  --no-browser-gpu     no\n  -h, --help           help\n';
    expect(flagsIn(help)).toEqual(['-o', '--output', '--no-browser-gpu', '-h', '--help']);
  });

  it('no page has double curly braces outside fenced code (Vue would read them as an interpolation and drop them)', async () => {
    const pages = await markdownPages(DOCS_DIR);
    const included = (await Promise.all(pages.map((file) => readFile(file, 'utf8')))).flatMap((text, i) =>
      [...text.matchAll(/^<!--@include: (\S+?)(?:\{[\d,]*\})?-->$/gm)].map((m) => path.resolve(path.dirname(pages[i]!), m[1]!)),
    );
    const offenders: string[] = [];
    for (const file of [...pages, ...included]) {
      let fenced = false;
      (await readFile(file, 'utf8')).split('\n').forEach((line, i) => {
        if (/^\s*```/.test(line)) fenced = !fenced;
        else if (!fenced && line.includes('{{')) offenders.push(`${path.relative(REPO_DIR, file)}:${i + 1}`);
      });
    }
    expect(offenders).toEqual([]);
  });

  it("the agents' guide's example composition lints clean", async () => {
    const guide = await readFile(path.join(DOCS_DIR, 'agents/guide.md'), 'utf8');
    const html = /```html\n([\s\S]*?)```/.exec(guide)?.[1];
    expect(html, 'docs/agents/guide.md has an html example').toBeTruthy();
    const dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-docs-guide-'));
    try {
      await mkdir(path.join(dir, 'example'));
      await writeFile(path.join(dir, 'example', 'index.html'), html!);
      const run = await seekframe(['lint', 'example', '--json'], dir);
      expect(JSON.parse(run.stdout)).toEqual({ findings: [], errors: 0, warnings: 0, notes: 0 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
