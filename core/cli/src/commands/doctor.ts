import path from 'node:path';
import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';
import { formatDoctorReport } from '../doctor/format-doctor-report.js';
import { EXIT_FAILURE } from '../report-error.js';

export function register(program: Command, ctx: CliContext): void {
  program
    .command('doctor')
    .description(
      'check that this machine can render: Node, Chromium, ffmpeg, fonts, memory, disk; with a project folder, its npm CDN packages too',
    )
    .argument('[dir]', 'a project folder: also list the packages it loads from npm CDNs (jsDelivr, unpkg) that are not installed')
    .option('--json', 'print { status, checks, counts } as JSON only')
    .action(async (dir: string | undefined, options: { json?: boolean }) => {
      // Loaded here, not at start-up: it pulls in puppeteer-core, which other commands do not need.
      const { runDoctor } = await import('../doctor/run-doctor.js');
      const report = await runDoctor({
        rendersDir: path.join(ctx.cwd, 'renders'),
        env: ctx.env,
        version: ctx.version,
        ...(dir === undefined ? {} : { project: { dir: path.resolve(ctx.cwd, dir), shown: dir } }),
      });
      if (options.json) ctx.printJson(report);
      else {
        ctx.print(ctx.colors.bold(`seekframe doctor ${ctx.version}`));
        for (const line of formatDoctorReport(report, ctx.colors)) ctx.print(line);
      }
      if (report.status === 'fail') ctx.exitCode = EXIT_FAILURE;
    });
}
