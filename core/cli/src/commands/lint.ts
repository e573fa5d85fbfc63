import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { preflightProject } from '@seekframe/composition';
import type { CliContext } from '../cli-context.js';
import { EXIT_FAILURE } from '../report-error.js';
import { buildLintReport, formatLintReport } from '../lint/format-lint-report.js';
import { listProjectHtmlFiles, preflightHost } from '@seekframe/producer/project-files';
import { resolveEntry } from '../lint/resolve-entry.js';

export function register(program: Command, ctx: CliContext): void {
  program
    .command('lint')
    .description('check a composition (and its sub-compositions) for errors before rendering')
    .argument('[path]', 'project folder (uses its index.html) or HTML file', '.')
    .option('--json', 'print { findings, errors, warnings } as JSON only')
    .action(async (target: string, options: { json?: boolean }) => {
      const entry = await resolveEntry(ctx.cwd, target);
      // Lint sees cwd-relative POSIX paths, so its messages name files the way the user typed them.
      const shown = path.relative(ctx.cwd, entry).split(path.sep).join('/');
      // The one preflight the render runs too (lint's rules and the files the pages load).
      const findings = await preflightProject(shown, {
        ...preflightHost(path.dirname(entry), { cwd: ctx.cwd }),
        // A file another one mounts, linted on its own, is told who mounts it.
        projectHtmlFiles: async () =>
          (await listProjectHtmlFiles(await projectFolderOf(entry, ctx.cwd))).map((file) =>
            path.relative(ctx.cwd, file).split(path.sep).join('/'),
          ),
      });
      const report = buildLintReport(findings, ctx.cwd);
      if (options.json) ctx.printJson(report);
      else for (const line of formatLintReport(report, ctx.colors, shown)) ctx.print(line);
      if (report.errors > 0) ctx.exitCode = EXIT_FAILURE;
    });
}

/**
 * The project a file linted on its own belongs to: the nearest folder above it (up to the working
 * folder) with an `index.html` of its own, else the file's folder. `components/badge.html` linted
 * from the project folder is the project's, whose index.html may mount it.
 */
async function projectFolderOf(entry: string, cwd: string): Promise<string> {
  const own = path.dirname(entry);
  const inside = (dir: string): boolean => !path.relative(cwd, dir).startsWith('..');
  for (let dir = own; inside(dir); dir = path.dirname(dir)) {
    const index = path.join(dir, 'index.html');
    if (index !== entry && (await stat(index).catch(() => undefined))?.isFile()) return dir;
    if (dir === path.dirname(dir)) break;
  }
  return own;
}
