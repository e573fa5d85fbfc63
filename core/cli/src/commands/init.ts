import path from 'node:path';
import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';
import { createProject } from '../init/create-project.js';

export function register(program: Command, ctx: CliContext): void {
  program
    .command('init')
    .description('create a project folder with a starter composition (index.html, README.md, AGENTS.md, package.json)')
    .argument('<project-name>', 'folder and npm package name, e.g. my-video')
    .option('--dir <parent>', 'folder to create the project in', '.')
    .option('--json', 'print the result as JSON only')
    .action(async (name: string, options: { dir: string; json?: boolean }) => {
      const created = await createProject({ name, parentDir: path.resolve(ctx.cwd, options.dir) });
      const shown = path.relative(ctx.cwd, created.dir) || '.';
      if (options.json) {
        ctx.printJson({ dir: created.dir, files: created.files });
        return;
      }
      const c = ctx.colors;
      ctx.print(`${c.green('Created')} ${c.bold(shown)} with ${created.files.join(', ')}`);
      ctx.print();
      ctx.print('Next:');
      ctx.print(`  cd ${shown}`);
      ctx.print('  npx seekframe lint .                     # check the composition');
      ctx.print('  npx seekframe preview .                  # play it in the browser');
      ctx.print(`  npx seekframe render . --output renders/${name}.mp4`);
    });
}
