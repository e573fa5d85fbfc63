import { formatFinding, preflightProject, SeekframeError, type LintFinding, type PreflightHost } from '@seekframe/composition';
import type { CompositionSource } from './ports.js';
import { readText } from './read-body.js';

/**
 * The render API's preflight: the same engine `seekframe lint`, the studio and the render run
 * (`preflightProject`: lint's rules and the project files the pages load), so a request the
 * render would refuse for a lint error or a missing file is answered 400 `lint-failed` at once,
 * before it queues, with every finding in `details.findings` as the render reports them. Hosts
 * here read through the composition's FileSource (Worker-safe): they have no font packages, so
 * the preflight gives no font warnings, and they cannot see `node_modules`, so a path there is
 * left to the render.
 */
export async function preflightComposition(entry: string, host: PreflightHost): Promise<LintFinding[]> {
  const findings = await preflightProject(entry, host);
  const errors = findings.filter((f) => f.severity === 'error');
  if (errors.length === 0) return findings;
  throw new SeekframeError(
    'lint-failed',
    `${entry} has ${errors.length} lint error${errors.length === 1 ? '' : 's'}, so the render would fail; fix ${errors.length === 1 ? 'it' : 'them'} first:\n` +
      errors.map((f) => `  ${formatFinding(f)}`).join('\n'),
    { stage: 'lint', details: { findings } },
  );
}

/** The deployment's own composition (its `index.html` and the files beside it), through its FileSource. */
export function sourcePreflightHost(source: CompositionSource): PreflightHost {
  return {
    async readFile(path) {
      const file = await source.read(path);
      return file ? readText(file.body) : undefined;
    },
    async fileStatus(path) {
      if (path.startsWith('node_modules/')) return 'unknown';
      const file = await source.read(path);
      if (!file) return 'missing';
      if (file.body instanceof ReadableStream) await file.body.cancel();
      return 'file';
    },
  };
}

/** A posted document: a project of one file (`index.html`), rendered alone. */
export function inlinePreflightHost(html: string): PreflightHost {
  return {
    readFile: async (path) => (path === 'index.html' ? html : undefined),
    fileStatus: async (path) => (path === 'index.html' ? 'file' : 'missing'),
  };
}

/**
 * The deployment's composition, preflighted once (it does not change while the deployment runs);
 * a composition that fails it fails every request that renders it, with the findings. A failure
 * of the source itself is tried again by a later request.
 */
export function compositionPreflight(source: CompositionSource): () => Promise<void> {
  let pending: Promise<void> | undefined;
  return () => {
    pending ??= preflightComposition('index.html', sourcePreflightHost(source)).then(() => undefined);
    pending.catch((error: unknown) => {
      if (!(error instanceof SeekframeError && error.code === 'lint-failed')) pending = undefined;
    });
    return pending;
  };
}
