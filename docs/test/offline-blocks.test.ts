import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOCS_DIR, REPO_DIR } from '../scripts/paths.js';

// Every code block marked ```sh offline in the manual and the README is a promise that the commands
// run as written, with no network. Each block runs with bash in a fresh temporary folder whose
// node_modules is this checkout's, as if Seekframe were installed in it.

interface Block {
  file: string;
  line: number;
  script: string;
}

const MARKER = /^```sh offline\s*$/;

async function markdownFiles(dir: string): Promise<string[]> {
  const skip = new Set(['node_modules', 'dist', 'pending', '.vitepress']);
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((e) =>
      e.isDirectory()
        ? skip.has(e.name)
          ? []
          : markdownFiles(path.join(dir, e.name))
        : Promise.resolve(e.name.endsWith('.md') ? [path.join(dir, e.name)] : []),
    ),
  );
  return nested.flat();
}

function offlineBlocks(file: string, text: string): Block[] {
  const lines = text.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    if (!MARKER.test(lines[i]!)) continue;
    const end = lines.indexOf('```', i + 1);
    if (end < 0) throw new Error(`${file}:${i + 1}: an offline block is never closed`);
    blocks.push({ file, line: i + 1, script: lines.slice(i + 1, end).join('\n') });
    i = end;
  }
  return blocks;
}

function bash(script: string, cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-euo', 'pipefail', '-c', script], {
      cwd,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        npm_config_loglevel: 'error',
        npm_config_update_notifier: 'false',
        NO_COLOR: '1',
      },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

const files = [path.join(REPO_DIR, 'README.md'), ...(await markdownFiles(DOCS_DIR))];
const blocks = (
  await Promise.all(files.map(async (file) => offlineBlocks(path.relative(REPO_DIR, file), await readFile(file, 'utf8'))))
).flat();

describe('offline shell blocks in the docs', () => {
  it('finds the marked blocks', () => {
    expect(offlineBlocks('x.md', 'a\n```sh offline\nnpx seekframe lint .\n```\n```sh\nnot this\n```\n')).toEqual([
      { file: 'x.md', line: 2, script: 'npx seekframe lint .' },
    ]);
    expect(blocks.length).toBeGreaterThan(0);
  });

  it.each(blocks.map((b) => [`${b.file}:${b.line}`, b] as const))(
    '%s runs and exits 0',
    async (_name, block) => {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-docs-block-'));
      try {
        await symlink(path.join(REPO_DIR, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
        const result = await bash(block.script, dir);
        expect(result.code, `${block.file}:${block.line}\n${block.script}\n--- output ---\n${result.output}`).toBe(0);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
    300_000,
  );
});
