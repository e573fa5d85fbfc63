import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeployTemplates, DOT_FILES, TEMPLATES } from '../scripts/build-deploy-templates.mjs';
import { createProject } from '../src/init/create-project.js';
import { DEPLOY_TEMPLATES } from '../src/init/project-templates.js';

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../../../', import.meta.url));

// What `seekframe init --template` copies, built from this checkout's apps/ into a temp folder
// (the same function the CLI's build runs). The registry tests install and run these projects.
describe('deploy templates as projects', () => {
  let out: string;
  let parent: string;
  let built: Record<string, string[]>;
  beforeAll(async () => {
    out = await mkdtemp(path.join(os.tmpdir(), 'seekframe-templates-'));
    parent = await mkdtemp(path.join(os.tmpdir(), 'seekframe-init-template-'));
    built = await buildDeployTemplates({ outDir: out });
  });
  afterAll(async () => {
    await rm(out, { recursive: true, force: true });
    await rm(parent, { recursive: true, force: true });
  });

  it('builds one per --template name', () => {
    expect(Object.keys(TEMPLATES).sort()).toEqual([...DEPLOY_TEMPLATES].sort());
  });

  for (const template of DEPLOY_TEMPLATES) {
    it(`${template}: the app's committed files (no tests), its standalone/ overlay and the bundled composition`, async () => {
      const { stdout } = await run('git', ['ls-files', `apps/${template}`], { cwd: repo });
      const committed = stdout
        .split('\n')
        .filter(Boolean)
        .map((file) => file.slice(`apps/${template}/`.length));
      const settings = TEMPLATES[template as keyof typeof TEMPLATES];
      const expected = committed
        .filter((file) => !file.startsWith('test/') && !file.startsWith('standalone/') && !(settings.omitFiles ?? []).includes(file))
        .map((file) => (DOT_FILES.includes(path.basename(file)) ? path.join(path.dirname(file), path.basename(file).slice(1)) : file))
        .concat(Object.keys(settings.repositoryFiles ?? {}), ['AGENTS.md']);
      const composition = (await run('git', ['ls-files', 'compositions/ui-3d-reveal'], { cwd: repo })).stdout
        .split('\n')
        .filter((file) => file && !file.includes('/test/'))
        .map((file) => `${settings.compositionDir}/${file.slice('compositions/ui-3d-reveal/'.length)}`);
      expect(built[template]).toEqual([...new Set([...expected, ...composition])].sort());
    });

    it(`${template}: seekframe init --template writes it with the project's name, pinned @seekframe/* versions and a .gitignore`, async () => {
      const created = await createProject({ name: `my-${template}`, parentDir: parent, template, deployTemplatesDir: out });
      expect(created.template).toBe(template);
      const pkg = JSON.parse(await readFile(path.join(created.dir, 'package.json'), 'utf8')) as {
        name: string;
        dependencies: Record<string, string>;
      };
      expect(pkg.name).toBe(`my-${template}`);
      const cli = JSON.parse(await readFile(path.join(repo, 'core/cli/package.json'), 'utf8')) as { version: string };
      for (const [name, spec] of Object.entries(pkg.dependencies)) {
        if (name === 'seekframe' || name.startsWith('@seekframe/')) expect(spec, name).toBe(cli.version);
      }
      expect(existsSync(path.join(created.dir, '.gitignore'))).toBe(true);
      // An AI assistant opening the project finds the composition guide and where the composition is.
      const agents = await readFile(path.join(created.dir, 'AGENTS.md'), 'utf8');
      expect(agents).toContain(`\`${TEMPLATES[template as keyof typeof TEMPLATES].compositionDir}/\``);
      expect(agents).toContain('# Writing a Seekframe composition');
      expect(existsSync(path.join(created.dir, 'gitignore'))).toBe(false);
      // Every dot file the app has comes back with its dot (npm would have left it out of the tarball).
      for (const dotFile of DOT_FILES.filter((name) => existsSync(path.join(repo, 'apps', template, name)))) {
        expect(existsSync(path.join(created.dir, dotFile)), dotFile).toBe(true);
        expect(existsSync(path.join(created.dir, dotFile.slice(1))), dotFile).toBe(false);
      }
      const tsconfig = JSON.parse(await readFile(path.join(created.dir, 'tsconfig.json'), 'utf8')) as {
        extends?: string;
        compilerOptions: Record<string, unknown>;
      };
      expect(tsconfig.extends).toBeUndefined();
      expect(tsconfig.compilerOptions).toMatchObject({ strict: true });
      expect(tsconfig.compilerOptions.customConditions).toBeUndefined();
      expect((await readdir(created.dir)).includes('test')).toBe(false);
    });
  }

  it('refuses a non-empty target and leaves it as it was', async () => {
    await expect(
      createProject({ name: 'my-modal-function', parentDir: parent, template: 'modal-function', deployTemplatesDir: out }),
    ).rejects.toMatchObject({ code: 'target-not-empty' });
  });
});
