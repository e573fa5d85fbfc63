import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { getFile } from '../storage/storage-files.js';
import { extractProject } from './project-archive.js';
import { distributedError } from './distributed-error.js';
import type { DistributedDeps } from './distributed-deps.js';
import { renderKeys } from './render-keys.js';

type FolderDeps = Pick<DistributedDeps, 'store' | 'workRoot' | 'sweepOtherRenders'>;

/** Preparations in flight in this process, so parallel chunks of one render extract once. */
const preparing = new Map<string, Promise<{ root: string; projectDir: string }>>();

/**
 * The render's scratch folder, with its project extracted once per process (a warm Lambda
 * instance, a fleet worker). On Lambda (`sweepOtherRenders`) folders of other renders are removed
 * first: /tmp is small and an instance serves one invocation at a time.
 */
export function renderWorkFolder(deps: FolderDeps, renderId: string): Promise<{ root: string; projectDir: string }> {
  const root = path.join(deps.workRoot, `render-${renderId}`);
  let result = preparing.get(root);
  if (!result) {
    result = prepare(deps, renderId, root).finally(() => preparing.delete(root));
    preparing.set(root, result);
  }
  return result;
}

async function prepare(deps: FolderDeps, renderId: string, root: string): Promise<{ root: string; projectDir: string }> {
  await mkdir(deps.workRoot, { recursive: true });
  if (deps.sweepOtherRenders) {
    for (const name of await readdir(deps.workRoot)) {
      if (name !== `render-${renderId}` && name.startsWith('render-'))
        await rm(path.join(deps.workRoot, name), { recursive: true, force: true });
    }
  }
  const projectDir = path.join(root, 'project');
  const marker = path.join(root, '.project-ready');
  if (!(await exists(marker))) {
    await rm(projectDir, { recursive: true, force: true });
    await mkdir(root, { recursive: true });
    const archive = path.join(root, 'project.tar.gz');
    if (!(await getFile(deps.store, renderKeys(renderId).project, archive))) {
      throw distributedError(
        'segment-missing',
        `renders/${renderId}/project.tar.gz is missing: the project was not uploaded, or it expired. Start the render again.`,
        { stage: 'load' },
      );
    }
    await extractProject(archive, projectDir);
    await rm(archive, { force: true });
    await writeFile(marker, '');
  }
  return { root, projectDir };
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}
