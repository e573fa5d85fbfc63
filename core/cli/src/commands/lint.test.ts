import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { LintReport } from '../lint/format-lint-report.js';
import { runCli } from '../../test/run-cli.js';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test/fixtures');

describe('seekframe lint', () => {
  it('passes a clean project folder (its index.html) with exit 0', async () => {
    const run = await runCli(['lint', 'clean'], { cwd: fixtures });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('✓ clean/index.html: no problems found\n');
  });

  it('defaults to the current folder', async () => {
    const run = await runCli(['lint', '--json'], { cwd: path.join(fixtures, 'clean') });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ findings: [], errors: 0, warnings: 0, notes: 0 });
  });

  it('reports a broken project as file:line:col severity rule message, with a summary, and exits 1', async () => {
    const run = await runCli(['lint', 'broken'], { cwd: fixtures });
    expect(run.code).toBe(1);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^broken\/index\.html:\d+:\d+\s+error\s+root\/missing-width\s+the composition root has no data-width/);
    expect(lines.some((l) => /^broken\/index\.html:\d+:\d+\s+error\s+timing\/cycle\s+/.test(l))).toBe(true);
    expect(lines.at(-1)).toBe('✗ 3 errors, 0 warnings in broken/index.html');
  });

  it('--json prints only { findings, errors, warnings } with cwd-relative files', async () => {
    const run = await runCli(['lint', 'broken/index.html', '--json'], { cwd: fixtures });
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as LintReport;
    expect(Object.keys(report).sort()).toEqual(['errors', 'findings', 'notes', 'warnings']);
    expect(report.errors).toBe(3);
    expect(report.warnings).toBe(0);
    expect(report.findings.map((f) => f.rule)).toEqual(['root/missing-width', 'variables/default-type', 'timing/cycle']);
    for (const f of report.findings) {
      expect(f).toMatchObject({ file: 'broken/index.html', severity: 'error' });
      expect(f.line).toBeGreaterThan(0);
    }
  });

  it('exits 0 when there are only warnings; locations are relative to the cwd, files named in a message relative to the project', async () => {
    const run = await runCli(['lint', path.join(fixtures, 'warning')], { cwd: path.join(fixtures, 'clean') });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^\.\.\/warning\/index\.html:\d+:\d+ {2}warning {2}subcomposition\/undeclared-variable {2}/m);
    // The message is the same one a template's 400 carries, so it names files from the project folder.
    expect(run.stdout).toContain('which card.html does not declare');
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('! 0 errors, 1 warning in ../warning/index.html');
  });

  it('a length from the registered timeline and a host-sized component are valid: a note, exit 0', async () => {
    const run = await runCli(['lint', 'hyperframes-parts'], { cwd: fixtures });
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      /^hyperframes-parts\/index\.html:3:1 {2}info {5}root\/duration-from-timeline {2}.*window\.__timelines\["main"\]/,
    );
    expect(lines.at(-1)).toBe('✓ hyperframes-parts/index.html: no problems found (1 note above)');
  });

  it('a component linted on its own still needs its size, and the message names the file that mounts it', async () => {
    const run = await runCli(['lint', 'hyperframes-parts/components/badge.html'], { cwd: fixtures });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/root\/missing-width .*index\.html mounts this file with data-composition-src and gives it its size there/);
  });

  it('explains a folder without index.html', async () => {
    const run = await runCli(['lint', 'no-index'], { cwd: fixtures });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('no-index has no index.html');
    expect(run.stderr).toContain('seekframe init');
  });
});
