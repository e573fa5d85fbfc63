import { resolveProject } from '@seekframe/producer/project-files';

/** `seekframe lint|preview <path>`: a file is the entry; a folder means its index.html. */
export async function resolveEntry(cwd: string, target: string): Promise<string> {
  return (await resolveProject(target, cwd)).entryFile;
}
