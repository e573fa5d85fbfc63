import { inspectComposition } from './inspect-composition.js';
import type { LintFinding } from './lint-finding.js';
import { lintProject, type LintHost } from './lint-project.js';
import { lintSeverity } from './lint-rules.js';
import { dirnamePosix, isRemoteUrl, normalizePosixPath, relativePosixPath, resolveSourcePath } from './posix-path.js';
import { cssReferences, htmlReferences, type ProjectReference } from './project-references.js';

/** What a host finds at a project path: `unknown` where it cannot tell (a Worker has no node_modules), which is no finding. */
export type ProjectFileStatus = 'file' | 'missing' | 'unreadable' | 'unknown';

/**
 * The I/O of the preflight, one small port like LintHost (whose members it has): a Node host
 * reads the folder (producer `preflightHost`), the render API its CompositionSource. A plain
 * object (its members are copied).
 */
export interface PreflightHost extends LintHost {
  /**
   * What is at `path` (the entry's folder joined with a project path, as `readFile` gets paths):
   * a readable file, nothing, or something the render could not read (a folder, no permission,
   * a symlink out of a confined project).
   */
  fileStatus(path: string): Promise<ProjectFileStatus>;
}

/**
 * Everything about a project that is known before a browser opens, for every caller: lint's
 * rules (lintProject) and the project files its pages will load (images, media, posters,
 * scripts, stylesheets and their url()s and @imports, iframes, tracks), each of which the render
 * refuses when it is missing (`asset-not-found`) or unreadable. `seekframe lint`, the studio's
 * lint panel, `seekframe check`, the render's plan step (runLint), `seekframe serve`'s preflight
 * and the render API's preflight all call this one function, so they cannot disagree.
 * Sorted by file, then position. Never throws for project faults; only a failing host does.
 */
export async function preflightProject(entryPath: string, host: PreflightHost): Promise<LintFinding[]> {
  const entry = normalizePosixPath(entryPath);
  const rootDir = dirnamePosix(entry);
  // Each file read once, by lint and by the reference walk.
  const texts = new Map<string, Promise<string | undefined>>();
  const readFile = (file: string): Promise<string | undefined> => {
    let text = texts.get(file);
    if (!text) texts.set(file, (text = host.readFile(file)));
    return text;
  };
  const findings = await lintProject(entryPath, { ...host, readFile });
  const statuses = new Map<string, Promise<ProjectFileStatus>>();
  const status = (file: string): Promise<ProjectFileStatus> => {
    let known = statuses.get(file);
    if (!known) statuses.set(file, (known = host.fileStatus(file)));
    return known;
  };

  const references: ProjectReference[] = [];
  for (const document of await projectDocuments(entry, rootDir, readFile)) {
    references.push(...htmlReferences(document.html, document.file, relativePosixPath(rootDir, document.file)));
  }
  const stylesheets = new Set<string>();
  for (let i = 0; i < references.length; i++) {
    const reference = references[i]!;
    const file = normalizePosixPath(`${rootDir}/${reference.path}`);
    const found = await status(file);
    if (found === 'missing' || found === 'unreadable') findings.push(referenceFinding(reference, found));
    // A stylesheet loads what it names too (appended: walked in turn, each once).
    if (found === 'file' && /\.css$/i.test(reference.path) && !stylesheets.has(file)) {
      stylesheets.add(file);
      const css = await readFile(file);
      if (css !== undefined) references.push(...cssReferences(css, file, reference.path));
    }
  }
  return sortFindings(findings);
}

/** The entry and every sub-composition file it embeds, as lint walks them (each once, readable ones). */
async function projectDocuments(
  entry: string,
  rootDir: string,
  readFile: (file: string) => Promise<string | undefined>,
): Promise<{ file: string; html: string }[]> {
  const documents: { file: string; html: string }[] = [];
  const seen = new Set<string>([entry]);
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.shift()!;
    const html = await readFile(file);
    if (html === undefined) continue;
    documents.push({ file, html });
    const { metadata } = inspectComposition(html, { file, role: file === entry ? 'entry' : 'child' });
    for (const sub of metadata.subCompositions) {
      if (!sub.src || isRemoteUrl(sub.src)) continue;
      const child = resolveSourcePath(file, sub.src, rootDir);
      if (!seen.has(child)) {
        seen.add(child);
        queue.push(child);
      }
    }
  }
  return documents;
}

function referenceFinding(reference: ProjectReference, status: 'missing' | 'unreadable'): LintFinding {
  const named = `${reference.by} names "${reference.written}"${reference.written === reference.path ? '' : ` (${reference.path} in the project folder)`}`;
  return {
    file: reference.file,
    line: reference.at.line,
    column: reference.at.column,
    rule: status === 'missing' ? 'project/missing-file' : 'project/unreadable-file',
    severity: lintSeverity(status === 'missing' ? 'project/missing-file' : 'project/unreadable-file'),
    message:
      status === 'missing'
        ? `${named}, which does not exist; the render stops at it (asset-not-found). Add the file or fix the path`
        : `${named}, which cannot be read (a folder, no read permission, or a link out of the project); the render stops at it. Put a readable file there`,
  };
}

function sortFindings(findings: LintFinding[]): LintFinding[] {
  return findings
    .map((f, i) => ({ f, i }))
    .sort((a, b) => (a.f.file < b.f.file ? -1 : a.f.file > b.f.file ? 1 : 0) || a.f.line - b.f.line || a.f.column - b.f.column || a.i - b.i)
    .map(({ f }) => f);
}
