import path from 'node:path';
import type { Command } from 'commander';
import * as z from 'zod';
import type { CliContext } from '../cli-context.js';
import { resolveEntry } from '../lint/resolve-entry.js';
import { invalidArgument } from '../usage-error.js';

export const DEFAULT_PREVIEW_PORT = 4400;

const PortSchema = z.coerce.number().int().min(0).max(65_535);

export function register(program: Command, ctx: CliContext): void {
  program
    .command('preview')
    .description(
      'open the preview studio: player, timeline of the clips, frame stepping, inspector, render panel, variables and lint; reloads when files change, keeping your place',
    )
    .argument('[dir]', 'project folder (uses its index.html) or HTML file', '.')
    .option('--port <n>', `port on 127.0.0.1 (0 picks a free one; default ${DEFAULT_PREVIEW_PORT})`)
    .action(async (dir: string, flags: { port?: string }) => {
      const port = PortSchema.safeParse(flags.port ?? DEFAULT_PREVIEW_PORT);
      if (!port.success) throw invalidArgument('--port', `--port must be a whole number from 0 to 65535, got "${flags.port}"`);
      const entryFile = await resolveEntry(ctx.cwd, dir);
      // Loaded on use, like render: the producer pulls in puppeteer-core and hono.
      const { loadRuntimeSource } = await import('@seekframe/producer');
      const { loadPlayerSource, loadPreviewAppSource } = await import('../preview/preview-assets.js');
      const { startPreview } = await import('../preview/start-preview.js');
      // As `seekframe render` does: the benchmark's saved speed settings, read once and passed in.
      const { savedRenderTuning } = await import('@seekframe/engine');
      const preview = await startPreview({
        entryFile,
        port: port.data,
        playerSource: await loadPlayerSource(),
        appSource: await loadPreviewAppSource(),
        runtimeSource: await loadRuntimeSource(),
        env: ctx.env,
        renderContext: { tuning: savedRenderTuning(ctx.env) },
        onReload: (files) => ctx.note(`${ctx.colors.dim('reload')} ${files.join(', ') || 'project changed'}`),
      });
      ctx.print(`${ctx.colors.green('preview')} ${path.relative(ctx.cwd, entryFile) || entryFile} at ${ctx.colors.bold(preview.url)}`);
      ctx.note('Press Ctrl-C to stop.');
      await new Promise<void>((resolve) => {
        const stop = (): void => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          resolve();
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
      await preview.close();
    });
}
