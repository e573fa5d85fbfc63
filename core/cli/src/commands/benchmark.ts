import path from 'node:path';
import type { Command } from 'commander';
import { z } from 'zod';
import { QUALITIES } from '@seekframe/composition';
import type { CliContext } from '../cli-context.js';
import { invalidArgument } from '../usage-error.js';

const flagsSchema = z.object({
  frames: z.coerce.number({ message: 'must be a number' }).int('must be a whole number').min(2, 'must be 2-600').max(600, 'must be 2-600'),
  // The render spec's quality presets (one list for every layer).
  quality: z.enum(QUALITIES, { message: `must be ${QUALITIES.join(', ').replace(/, (?=[^,]*$)/, ' or ')}` }),
  save: z.boolean(),
  json: z.boolean().optional(),
});

export function register(program: Command, ctx: CliContext): void {
  program
    .command('benchmark')
    .description('render a short sample with several speed settings, print a table and save the fastest that matches')
    .argument('[dir]', 'project folder (uses its index.html) or HTML file', '.')
    .option('--frames <n>', 'frames rendered per setting, from the start of the composition', '60')
    .option('--quality <preset>', 'draft, standard or high: the encoder preset to measure', 'standard')
    .option('--no-save', 'do not save the recommendation for --workers auto')
    .option('--json', 'print the whole report as one JSON document')
    .action(async (dir: string, raw: Record<string, unknown>) => {
      const parsed = flagsSchema.safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        const field = String(issue.path[0] ?? 'frames');
        throw invalidArgument(`--${field}`, `--${field} ${issue.message}, got "${String(raw[field])}".`);
      }
      const flags = parsed.data;
      // Loaded on use: the producer pulls in puppeteer-core and hono.
      const { runBenchmark } = await import('../benchmark/run-benchmark.js');
      const { formatBenchmarkTable } = await import('../benchmark/format-benchmark-table.js');
      const { describeSettings } = await import('../benchmark/benchmark-variants.js');
      const report = await runBenchmark({
        projectDir: path.resolve(ctx.cwd, dir),
        frames: flags.frames,
        quality: flags.quality,
        save: flags.save,
        env: ctx.env,
        onStep: (line) => {
          if (!flags.json) ctx.note(line);
        },
      });
      if (flags.json) return ctx.printJson(report);
      for (const line of formatBenchmarkTable(report.rows)) ctx.print(line);
      const best = report.recommendation;
      const { BUSY_MACHINE_FRACTION } = await import('../benchmark/pick-recommendation.js');
      ctx.print('');
      ctx.print(
        `${report.cores} cores, ${report.frames} frames per setting, --quality ${report.quality}; ` +
          'idle = share of the cores the render left unused, others = share other processes used meanwhile.',
      );
      ctx.print(`capture: ${report.captureNote}.`);
      const busiest = Math.max(...report.rows.map((row) => row.othersFraction));
      if (busiest > BUSY_MACHINE_FRACTION) {
        ctx.print(
          ctx.colors.yellow(`warning: other processes used up to ${(busiest * 100).toFixed(0)}% of the cores during the benchmark; `) +
            'fps figures are unreliable. Run it again on a quiet machine; CPU seconds per frame stay comparable.',
        );
      }
      ctx.print(
        `${ctx.colors.green('fastest matching')}: ${best.label} (${describeSettings(best.settings)}): ${best.fps.toFixed(2)} fps, ` +
          `${best.speedup.toFixed(2)}x the reference.`,
      );
      if (report.savedTo)
        ctx.print(
          `saved to ${report.savedTo}; renders on this machine use it for --workers auto, worker pinning, frame transport, JPEG quality and x264 threads.`,
        );
      else ctx.print('not saved (--no-save).');
    });
}
