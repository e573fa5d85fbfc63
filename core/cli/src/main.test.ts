import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../test/run-cli.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const pkg = JSON.parse(readFileSync(path.join(here, '../package.json'), 'utf8')) as { version: string };

describe('seekframe command parsing', () => {
  it('--help lists every command and exits 0', async () => {
    const run = await runCli(['--help']);
    expect(run.code).toBe(0);
    for (const name of ['init', 'lint', 'doctor']) expect(run.stdout).toMatch(new RegExp(`^\\s+${name}\\b`, 'm'));
  });

  it('--version prints the package.json version', async () => {
    const run = await runCli(['--version']);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe(pkg.version);
  });

  it("-v/--version after a command is that command's unknown option (exit 2), not the version with exit 0", async () => {
    for (const args of [
      ['render', 'no-such-project', '-v'],
      ['render', 'no-such-project', '--workers', '-v_Sa'],
      ['lint', '.', '--version'],
    ]) {
      const run = await runCli(args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stdout.trim(), args.join(' ')).not.toBe(pkg.version);
    }
  });

  it('exits 2 on an unknown command, an unknown option and a missing argument', async () => {
    const unknown = await runCli(['rendr']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'rendr'");
    expect((await runCli(['lint', '--nope'])).code).toBe(2);
    const missing = await runCli(['init']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("missing required argument 'project-name'");
  });

  it('exits 2 and prints help when no command is given', async () => {
    const run = await runCli([]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Usage: seekframe');
  });
});

describe('error printing', () => {
  const missing = path.join(here, '../test/fixtures/does-not-exist');

  it('prints a SeekframeError as one sentence without a stack and exits 1', async () => {
    const run = await runCli(['lint', missing]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`error ${missing} does not exist; pass a composition folder (with index.html) or an HTML file.\n`);
    expect(run.stdout).toBe('');
  });

  it('adds the stack with SEEKFRAME_DEBUG=1', async () => {
    const run = await runCli(['lint', missing], { env: { SEEKFRAME_DEBUG: '1' } });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/\n\s+at .+resolve-entry/);
  });

  it('prints only a one-line JSON error event in --json mode', async () => {
    const run = await runCli(['lint', missing, '--json']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('');
    expect(run.stdout.trimEnd().split('\n')).toHaveLength(1);
    const doc = JSON.parse(run.stdout) as { type: string; error: { code: string; stage: string; message: string } };
    expect(doc.type).toBe('error');
    expect(doc.error).toMatchObject({ code: 'entry-not-found', stage: 'load', retryable: false });
    expect(doc.error.message).toContain('does-not-exist');
  });

  it('colors only when asked: FORCE_COLOR adds ANSI codes, NO_COLOR wins over it', async () => {
    const colored = await runCli(['lint', missing], { env: { FORCE_COLOR: '1' } });
    expect(colored.stderr).toContain('\u001b[');
    const plain = await runCli(['lint', missing], { env: { FORCE_COLOR: '1', NO_COLOR: '1' } });
    expect(plain.stderr).not.toContain('\u001b[');
  });
});
