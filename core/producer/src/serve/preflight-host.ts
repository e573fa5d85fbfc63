import { access, constants } from 'node:fs/promises';
import path from 'node:path';
import type { PreflightHost, ProjectFileStatus } from '@seekframe/composition';
import { fontPackageCheck } from './fonts/font-package-check.js';
import { createNodeCompositionHost } from './node-composition-host.js';
import { readInsideProject } from './read-inside-project.js';
import { readProjectFile } from './read-project-file.js';

export interface PreflightHostOptions {
  /**
   * Untrusted projects (server renders, inline html): read nothing outside the folder, and a
   * file whose real path leaves it is unreadable, as the sandboxed project server refuses it.
   */
  confined?: boolean;
  /** Where relative paths given to the host start (lint passes cwd-relative ones). Default: the process's. */
  cwd?: string;
}

/**
 * The preflight's I/O for a project on disk (`preflightProject` in @seekframe/composition): files
 * are judged by the very code the render's project server answers with (the Node composition
 * host: the folder, `index.html` of a folder, `node_modules/` packages, the confinement), so lint
 * and the render agree on what exists.
 */
export function preflightHost(root: string, options: PreflightHostOptions = {}): PreflightHost {
  const projectRoot = path.resolve(root);
  const absolute = (file: string): string => path.resolve(options.cwd ?? process.cwd(), file);
  const serving = createNodeCompositionHost({ root: projectRoot, confineToRoot: options.confined === true, network: 'none' });
  const confinedRead = options.confined ? readInsideProject(projectRoot) : undefined;
  return {
    readFile: (file) => (confinedRead ?? readProjectFile)(absolute(file)),
    fontPackageInstalled: fontPackageCheck(projectRoot),
    async fileStatus(file): Promise<ProjectFileStatus> {
      const relative = path.relative(projectRoot, absolute(file)).split(path.sep).join('/');
      if (relative === '..' || relative.startsWith('../') || path.isAbsolute(relative)) return 'unreadable';
      const found = await serving.projectFile(relative);
      // A Response is the server's refusal (a path out of the folder, a symlink out of a confined project).
      if (found instanceof Response) return 'unreadable';
      if (found) return (await readable(path.join(projectRoot, found.path))) ? 'file' : 'unreadable';
      const npm = /^node_modules\/(.+)$/.exec(relative);
      if (!npm) return 'missing';
      // As the server answers `node_modules/<package>/<file>` outside the folder: the installed package's file.
      const fromPackage = await serving.packageFile(`https://cdn.jsdelivr.net/npm/${npm[1]}`).catch(() => undefined);
      return fromPackage === undefined ? 'unreadable' : fromPackage ? 'file' : 'missing';
    },
  };
}

async function readable(file: string): Promise<boolean> {
  return access(file, constants.R_OK).then(
    () => true,
    () => false,
  );
}
