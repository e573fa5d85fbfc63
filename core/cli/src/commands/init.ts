import path from 'node:path';
import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';
import { createProject } from '../init/create-project.js';
import { nextSteps, PROJECT_TEMPLATES } from '../init/project-templates.js';

export function register(program: Command, ctx: CliContext): void {
  program
    .command('init')
    .description('create a project folder: a starter composition, or a deploy template as your own project')
    .argument('<project-name>', 'folder and npm package name, e.g. my-video')
    .option('--template <name>', `what to create: ${PROJECT_TEMPLATES.join(', ')}`, 'starter')
    .option('--dir <parent>', 'folder to create the project in', '.')
    .option('--json', 'print the result as JSON only')
    .action(async (name: string, options: { dir: string; template: string; json?: boolean }) => {
      const created = await createProject({ name, parentDir: path.resolve(ctx.cwd, options.dir), template: options.template });
      const shown = path.relative(ctx.cwd, created.dir) || '.';
      if (options.json) {
        ctx.printJson({ dir: created.dir, template: created.template, files: created.files });
        return;
      }
      const c = ctx.colors;
      const what =
        created.template === 'starter' ? created.files.join(', ') : `the ${created.template} template (${created.files.length} files)`;
      ctx.print(`${c.green('Created')} ${c.bold(shown)} with ${what}`);
      ctx.print();
      ctx.print('Next:');
      for (const step of nextSteps(created.template, shown, name)) ctx.print(`  ${step}`);
      if (created.template !== 'starter') ctx.print(`README.md in ${shown} says more: settings, your own composition, costs.`);
    });
}
