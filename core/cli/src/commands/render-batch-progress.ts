import type { BatchEvent } from '@seekframe/producer';
import type { CliContext } from '../cli-context.js';
import { displayPath } from '@seekframe/producer/project-files';

/**
 * How `render --batch` shows itself: `--json` writes every event as one line and nothing else;
 * otherwise one line per row outcome (rows render side by side, so no per-frame bar), failures and
 * warnings on stderr, and a summary naming the manifest. `--quiet` prints only finished outputs.
 */
export function createBatchReporter(ctx: CliContext, mode: { json: boolean; quiet: boolean }): { onEvent(event: BatchEvent): void } {
  if (mode.json) return { onEvent: (event) => ctx.printJsonLine(event) };
  const shown = (file: string): string => displayPath(ctx.cwd, file);
  const { colors } = ctx;
  return {
    onEvent(event) {
      switch (event.type) {
        case 'warning':
          ctx.note(`${colors.yellow('warning')} ${'row' in event ? `row ${event.row}: ` : ''}${event.message}`);
          return;
        case 'error':
          return; // thrown too; main prints it once.
        case 'batch-row-failed':
          ctx.note(`${colors.red('failed')} row ${event.row} ${shown(event.output)}: ${event.error.message}`);
          return;
        case 'batch-row-complete':
          if (mode.quiet) ctx.print(shown(event.output));
          else
            ctx.print(
              `${colors.green(event.resumed ? 'kept' : 'rendered')} row ${event.row} ${shown(event.output)}${event.resumed ? ' (completed earlier)' : event.durationMs === null ? '' : ` (${(event.durationMs / 1000).toFixed(1)} s)`}`,
            );
          return;
      }
      if (mode.quiet) return;
      if (event.type === 'batch-start') {
        ctx.print(
          `batch: ${event.total} rows, ${event.concurrency} at a time, ${event.workersPerRow} worker${event.workersPerRow === 1 ? '' : 's'} each`,
        );
      } else if (event.type === 'batch-row-start') {
        ctx.print(colors.dim(`row ${event.row} -> ${shown(event.output)}`));
      } else if (event.type === 'batch-row-skipped') {
        ctx.print(`${colors.yellow('skipped')} row ${event.row} (${event.reason === 'fail-fast' ? '--batch-fail-fast' : 'cancelled'})`);
      } else if (event.type === 'batch-complete') {
        const c = event.counts;
        const line = `${c.completed}/${c.total} completed${c.resumed ? ` (${c.resumed} kept)` : ''}, ${c.failed} failed, ${c.skipped} skipped${event.cancelled ? ', cancelled' : ''}; manifest ${shown(event.manifest)}`;
        ctx.print(c.completed === c.total ? `${colors.green('batch done')} ${line}` : `${colors.red('batch incomplete')} ${line}`);
      }
    },
  };
}
