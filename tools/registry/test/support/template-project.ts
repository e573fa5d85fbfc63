import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import type { UserShell } from './user-shell.js';

/** `npx seekframe init my-app --template <name> --dir <fresh folder>` with the CLI installed from the registry; returns the project folder. */
export async function initTemplate(shell: UserShell, template: string): Promise<string> {
  const work = await shell.folder(`template-${template}`);
  await shell.run('npx', ['seekframe', 'init', 'my-app', '--template', template, '--dir', work], { cwd: shell.context.cliDir });
  return path.join(work, 'my-app');
}

const TEXT_FILES = /\.(ts|mts|mjs|js|json|jsonc)$/;

/**
 * The project stands alone: package.json depends on the published @seekframe/* versions (no
 * workspace:, file: or relative specs), and no source or config file names a path that leaves
 * the project folder (the monorepo's ../../core, ../../compositions, ../../node_modules...).
 */
export async function expectStandalone(shell: UserShell, dir: string): Promise<void> {
  const manifest = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as { name: string; dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
  expect(manifest.name).toBe('my-app');
  const published = new Map(shell.context.packed.map((pkg) => [pkg.name, pkg.version]));
  const all = { ...manifest.dependencies, ...manifest.devDependencies };
  for (const [name, spec] of Object.entries(all)) {
    expect(spec, `${name}`).not.toMatch(/^(workspace:|file:|link:|\.\.?\/)/);
    if (name === 'seekframe' || name.startsWith('@seekframe/')) expect(spec, `${name} pins the published version`).toBe(published.get(name));
  }
  const escaping: string[] = [];
  for (const file of await textFiles(dir)) {
    const text = await readFile(path.join(dir, file), 'utf8');
    for (const match of text.matchAll(/['"`]((?:\.\.\/)+[^'"`\s]*)['"`]/g)) {
      const target = path.resolve(path.dirname(path.join(dir, file)), match[1]!);
      if (target !== dir && !target.startsWith(dir + path.sep)) escaping.push(`${file}: ${match[1]}`);
    }
  }
  expect(escaping, 'paths that leave the project folder').toEqual([]);
}

async function textFiles(root: string, prefix = ''): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(path.join(root, prefix), { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name === '.next') continue;
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) files.push(...(await textFiles(root, relative)));
    else if (TEXT_FILES.test(entry.name)) files.push(relative);
  }
  return files;
}

/** The contract composition exactly as the installed @seekframe/render-api ships it. */
export function installedContractComposition(dir: string): string {
  return path.join(dir, 'node_modules/@seekframe/render-api/fixtures/contract-composition');
}

