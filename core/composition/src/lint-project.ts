import { checkGradingLuts } from './check-grading-luts.js';
import { inspectComposition, type CompositionMetadata } from './inspect-composition.js';
import type { LintFinding } from './lint-finding.js';
import { lintSeverity, type LintRuleId } from './lint-rules.js';
import { lengthInPage, type LengthInPage } from './length-in-page.js';
import { lintFonts } from './lint-fonts.js';
import { dirnamePosix, isRemoteUrl, normalizePosixPath, relativePosixPath, resolveSourcePath } from './posix-path.js';
import { resolveTiming, type TimingItem } from './resolve-timing.js';
import type { SourceLocation } from './html-tree.js';
import { validateOverrides } from './validate-overrides.js';
import { ATTR } from './composition-attributes.js';

/** What `lintProject` needs from the outside world: file text by POSIX path, or undefined if absent. */
export interface LintHost {
  readFile(path: string): Promise<string | undefined>;
  /** True when `@fontsource/<id>` is installed for the project (fonts are not linted without it). */
  fontPackageInstalled?(id: string): Promise<boolean>;
  /**
   * The project's HTML files (POSIX paths in the form of the entry's). Optional: with it, an entry
   * without a size that another file mounts is told so (it still needs its size on its own).
   */
  projectHtmlFiles?(): Promise<string[]>;
}

type FileState =
  | { status: 'visiting' }
  | { status: 'missing' }
  /** `declarationsBroken`: some declarations were dropped, so "undeclared" host values may be false alarms. */
  | { status: 'done'; metadata: CompositionMetadata; declarationsBroken: boolean; inPage: LengthInPage | undefined };

/**
 * Lints a composition and every sub-composition it embeds (each file once). Findings are sorted
 * by file, then position. Never throws for project faults; only a failing `host.readFile` does.
 */
export async function lintProject(entryPath: string, host: LintHost): Promise<LintFinding[]> {
  const entry = normalizePosixPath(entryPath);
  const rootDir = dirnamePosix(entry);
  const findings: LintFinding[] = [];
  const files = new Map<string, FileState>();
  const reportedFonts = new Set<string>();
  const shown = (file: string): string => relativePosixPath(rootDir, file);

  const lintFile = async (path: string, stack: string[]): Promise<CompositionMetadata | undefined> => {
    const html = await host.readFile(path);
    if (html === undefined) {
      files.set(path, { status: 'missing' });
      return undefined;
    }
    files.set(path, { status: 'visiting' });
    const role = path === entry ? 'entry' : 'child';
    let inspection = inspectComposition(html, { file: path, role });
    if (role === 'entry' && inspection.findings.some((f) => f.rule === 'root/missing-width' || f.rule === 'root/missing-height')) {
      const mountedBy = await findMountingFile(path, rootDir, host);
      if (mountedBy) inspection = inspectComposition(html, { file: path, role, mountedBy: shown(mountedBy) });
    }
    findings.push(...inspection.findings);
    const { metadata } = inspection;
    const add: Add = (at, rule, message) => {
      findings.push({ file: path, line: at.line, column: at.column, rule, severity: lintSeverity(rule), message });
    };

    const childDurations = new Map<number, number>();
    /** Hosts whose length only the child's registered timeline decides, in the page. */
    const runtimeLengths = new Set<number>();
    for (const [i, sub] of metadata.subCompositions.entries()) {
      if (!sub.src || isRemoteUrl(sub.src)) {
        if (!sub.src)
          add(
            sub.location,
            'subcomposition/missing-src-file',
            `data-composition-src on "${sub.id}" is empty; point it at an HTML file of the project`,
          );
        continue;
      }
      const childPath = resolveSourcePath(path, sub.src, rootDir);
      // Messages name files from the project's folder: an absolute path would tell a client of a
      // render server where it keeps its projects.
      const child = shown(childPath);
      if (files.get(childPath)?.status === 'visiting') {
        const trail = [...stack, path];
        const chain = [...trail.slice(trail.indexOf(childPath)), childPath].map(shown).join(' -> ');
        add(
          sub.location,
          'subcomposition/cycle',
          `"${sub.id}" embeds ${child}, which already embeds this file: ${chain}; remove one of the data-composition-src links`,
        );
        continue;
      }
      if (!files.has(childPath)) await lintFile(childPath, [...stack, path]);
      const state = files.get(childPath);
      if (state?.status !== 'done') {
        add(
          sub.location,
          'subcomposition/missing-src-file',
          `data-composition-src="${sub.src}" on "${sub.id}" points to ${child}, which does not exist; fix the path or add the file`,
        );
        continue;
      }
      const childMetadata = state.metadata;
      if (childMetadata.duration > 0) childDurations.set(i, childMetadata.duration);
      else if (sub.duration === undefined) {
        if (state.inPage === 'timeline' || state.inPage === 'animations') {
          runtimeLengths.add(i);
          add(
            sub.location,
            state.inPage === 'timeline' ? 'subcomposition/duration-from-timeline' : 'subcomposition/duration-from-animations',
            state.inPage === 'timeline'
              ? `"${sub.id}" has no data-duration and neither has the root of ${child}, so it lasts as long as the timeline ${child} registers (window.__timelines or hyperframesAnime.register), whose length is read in the page once its scripts ran; add data-duration to the host to fix the length in the file instead`
              : `"${sub.id}" has no data-duration, neither has the root of ${child} and it registers no timeline, so it lasts until the last CSS animation or Web Animation of ${child} ends, read in the page; add data-duration to the host to fix the length in the file instead`,
          );
        } else {
          add(
            sub.location,
            'subcomposition/missing-duration',
            `"${sub.id}" has no data-duration, the root of ${child} has none and ${child} registers no timeline (window.__timelines or hyperframesAnime.register)${state.inPage === 'infinite-animations' ? ' and its only CSS animations include an infinite one' : ''}, so nothing decides its length; at render time it would last 0 s and never show (the render warns sub-composition-empty); add data-duration="5" (seconds) to the host or to the root of ${child}`,
          );
        }
      }
      for (const issue of validateOverrides(childMetadata.variables, sub.variableValues)) {
        const at = sub.variableValueLocations?.[issue.id] ?? sub.location;
        if (issue.kind === 'undeclared') {
          if (state.declarationsBroken) continue;
          add(
            at,
            'subcomposition/undeclared-variable',
            `data-variable-values on "${sub.id}" sets "${issue.id}", which ${child} does not declare (declared: ${childMetadata.variables.map((v) => v.id).join(', ') || 'none'}); remove it or declare it in ${child}`,
          );
        } else {
          add(at, 'subcomposition/variable-type', `data-variable-values on "${sub.id}": ${issue.message} (declared in ${child})`);
        }
      }
    }

    lintTiming(metadata, childDurations, runtimeLengths, add);
    await checkGradingLuts(html, path, rootDir, metadata.variables, host, add);
    findings.push(...(await lintFonts(path, html, rootDir, host, reportedFonts)));
    const declarationsBroken = inspection.findings.some((f) => f.rule.startsWith('variables/') && f.severity === 'error');
    files.set(path, { status: 'done', metadata, declarationsBroken, inPage: lengthInPage(html) });
    return metadata;
  };

  await lintFile(entry, []);
  if (files.get(entry)?.status === 'missing') {
    findings.push({
      file: entry,
      line: 1,
      column: 1,
      rule: 'project/missing-entry',
      severity: lintSeverity('project/missing-entry'),
      message: `${shown(entry)} does not exist; pass the path of the composition's HTML file`,
    });
  }
  return sortFindings(findings);
}

type Add = (at: SourceLocation, rule: LintRuleId, message: string) => void;

/** A file of the project whose `data-composition-src` names `file`, if the host can list them. */
async function findMountingFile(file: string, rootDir: string, host: LintHost): Promise<string | undefined> {
  for (const other of (await host.projectHtmlFiles?.()) ?? []) {
    const path = normalizePosixPath(other);
    if (path === file) continue;
    const html = await host.readFile(path);
    if (html === undefined || !html.includes(ATTR.compositionSrc)) continue;
    const { metadata } = inspectComposition(html, { file: path, role: 'child' });
    if (metadata.subCompositions.some((sub) => sub.src && !isRemoteUrl(sub.src) && resolveSourcePath(path, sub.src, rootDir) === file))
      return path;
  }
  return undefined;
}

function lintTiming(metadata: CompositionMetadata, childDurations: Map<number, number>, runtimeLengths: Set<number>, add: Add): void {
  type Item = TimingItem & { location: SourceLocation; tag: string; runtimeLength?: boolean };
  const items: Item[] = [
    ...metadata.clips.map((c) => ({
      id: c.id,
      start: c.start,
      duration: c.duration,
      trackIndex: c.trackIndex,
      location: c.location,
      tag: c.tag,
    })),
    // A host without data-duration lasts as long as its child composition.
    ...metadata.subCompositions.map((s, i) => ({
      id: s.id,
      start: s.start,
      duration: s.duration ?? childDurations.get(i),
      trackIndex: s.trackIndex,
      location: s.location,
      tag: 'composition',
      runtimeLength: runtimeLengths.has(i),
    })),
  ];
  const describeItem = (item: Item): string =>
    item.id ? `"${item.id}"` : `<${item.tag}> at ${item.location.line}:${item.location.column}`;
  const result = resolveTiming(items, { describe: describeItem });
  for (const finding of result.findings) {
    const item = items[finding.index] as Item;
    const target = finding.target === undefined ? undefined : items[finding.target];
    if (finding.rule === 'timing/missing-duration' && (target?.tag === 'video' || target?.tag === 'audio')) {
      // Legal: the render measures the media file. Lint cannot, so it only points it out.
      const name = target.id ? `"${target.id}"` : `<${target.tag}>`;
      add(
        item.location,
        'timing/follows-media',
        `${describeItem(item)} starts after ${name}, whose length is measured from the media file when the render loads it, so that is when this start is known; add data-duration to ${name} to fix it in the file instead`,
      );
      continue;
    }
    if (finding.rule === 'timing/missing-duration' && target?.runtimeLength) {
      add(
        item.location,
        'timing/follows-timeline',
        `${describeItem(item)} starts after "${target.id ?? ''}", whose length is only known in the page (its registered timeline's, or where its animations end), so that is when this start is known; add data-duration to "${target.id ?? ''}" to fix it in the file instead`,
      );
      continue;
    }
    add(item.location, finding.rule, finding.message);
  }
  // A clip that starts when the composition is already over is never seen or heard.
  if (metadata.duration <= 0) return;
  for (const r of result.items) {
    if (r.start === undefined || r.start < metadata.duration) continue;
    const name = r.item.id ? `"${r.item.id}"` : `<${r.item.tag}>`;
    add(
      r.item.location,
      'timing/after-end',
      `${name} starts at ${r.start}s, but the composition ends at ${metadata.duration}s, so it never shows; start it earlier or raise data-duration on the root`,
    );
  }
}

function sortFindings(findings: LintFinding[]): LintFinding[] {
  return findings
    .map((f, i) => ({ f, i }))
    .sort((a, b) => (a.f.file < b.f.file ? -1 : a.f.file > b.f.file ? 1 : 0) || a.f.line - b.f.line || a.f.column - b.f.column || a.i - b.i)
    .map(({ f }) => f);
}
