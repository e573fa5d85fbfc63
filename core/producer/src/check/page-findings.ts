import type { FileReference, SeekframeError } from '@seekframe/composition';
import type { PageProblem } from '@seekframe/engine';
import type { RuntimeWarning } from '@seekframe/runtime';
import type { CheckFinding } from './check-report.js';
import { ROOT_ROUTES } from '../serve/composition-files/composition-routes.js';
import { parseCdnUrl } from '../serve/resolve-cdn-url.js';

export interface PageFacts {
  /** The project server's problem log (missing files, failed remote assets...). */
  served: readonly SeekframeError[];
  /** What the browser saw (uncaught exceptions, console errors, failed requests, HTTP errors). */
  browser: readonly PageProblem[];
  /** `__seekframe.errors()`: author-script errors the runtime caught, with their location. */
  scriptErrors: readonly string[];
  /** `__seekframe.warnings()`. */
  warnings: readonly RuntimeWarning[];
  /** The project server's origin, cut from URLs so findings name project files. */
  origin: string;
  /** The elements that name each missing project file (findReferences in the document that asked for it). */
  referrers: ReadonlyMap<string, FileReference[]>;
  /** A project file (relative to the project root) as findings show it: relative to the working folder. */
  display(file: string): string;
}

/** A script error's `(url:line:column)` suffix, as the runtime's error log writes it. */
const LOCATION = /\((?<url>[^()\s]+):(?<line>\d+):(?<column>\d+)\)\s*$/;

/**
 * Everything that went wrong while the page loaded and was seeked, as findings: the runtime's
 * script errors (with file and line), missing project files (with the element that uses them),
 * failed requests, console errors (warnings: libraries log harmless ones) and the runtime's own
 * warnings. The same failure seen twice (a 404 in the server log, in the browser and as a
 * console message) is one finding.
 */
export function pageFindings(facts: PageFacts): CheckFinding[] {
  const findings: CheckFinding[] = [];
  const project = (url: string): string =>
    url.startsWith(`${facts.origin}/`) ? facts.display(decodeURIComponent(url.slice(facts.origin.length + 1).split(/[?#]/)[0]!)) : url;

  for (const message of facts.scriptErrors) {
    const where = LOCATION.exec(message)?.groups;
    const text = message.split(`${facts.origin}/`).join('');
    findings.push({
      check: 'page',
      code: 'page/script-error',
      severity: 'error',
      message: `A script threw: ${text}`,
      element: null,
      time: null,
      file: where ? { path: project(where.url!), line: Number(where.line), column: Number(where.column) } : null,
      fix: 'Fix the script; `seekframe preview` shows the same error in the browser console. A render stops at the first script error.',
    });
  }
  for (const problem of facts.browser) {
    if (problem.kind !== 'uncaught-error') continue;
    if (facts.scriptErrors.some((message) => message.includes(problem.message))) continue;
    findings.push({
      check: 'page',
      code: 'page/script-error',
      severity: 'error',
      message: `A script threw: ${problem.message}`,
      element: null,
      time: null,
      file: null,
      fix: 'Fix the script; `seekframe preview` shows it in the browser console.',
    });
  }

  const missing = new Set<string>();
  for (const error of facts.served) {
    const details = (error.details ?? {}) as { file?: string; referencedBy?: string; url?: string };
    if (error.code === 'asset-not-found' && details.file) {
      missing.add(facts.display(details.file));
      const refs = facts.referrers.get(details.file) ?? [];
      const from = details.referencedBy ? facts.display(details.referencedBy) : undefined;
      const used = refs.length > 0 ? `: ${refs.map((r) => r.selector).join(', ')}` : '';
      findings.push({
        check: 'page',
        code: 'page/missing-file',
        severity: 'error',
        message: `${facts.display(details.file)} does not exist in the project${from ? ` (used by ${from}${used})` : ''}; a render fails on it.`,
        element: refs[0] ? { label: refs[0].selector, selector: refs[0].selector, hosts: [] } : null,
        time: null,
        file: from ? { path: from, line: refs[0]?.line ?? 0, column: refs[0]?.column ?? 0 } : null,
        fix: `Add ${facts.display(details.file)} to the project folder, or fix the reference to it.`,
        details: { file: facts.display(details.file), ...(from ? { referencedBy: from } : {}) },
      });
      continue;
    }
    findings.push({
      check: 'page',
      code: `page/${error.code}`,
      severity: 'error',
      message: error.message,
      element: null,
      time: null,
      file: null,
      fix: 'The message says what to change; a render fails on it.',
      details: { code: error.code, ...(error.details ?? {}) },
    });
  }

  const requests = new Set<string>();
  for (const problem of facts.browser) {
    if (problem.kind !== 'request-failed' && problem.kind !== 'http-error') continue;
    const remote = remoteTarget(problem.url, facts.origin);
    // A remote URL the server already reported (it failed to load, or its npm package is not installed).
    if (remote !== undefined && reportedRemote(remote, facts.served)) continue;
    const file = remote ?? project(problem.url);
    // Served files the server already reported; aborted requests (navigations, removed elements) are not failures.
    if (missing.has(file) || requests.has(problem.url) || (problem.kind === 'request-failed' && /ERR_ABORTED/.test(problem.reason)))
      continue;
    requests.add(problem.url);
    const why = problem.kind === 'http-error' ? `HTTP ${problem.status}` : problem.reason;
    findings.push({
      check: 'page',
      code: 'page/request-failed',
      severity: 'error',
      message: `The page could not load ${file} (${why}).`,
      element: null,
      time: null,
      file: null,
      fix:
        file === problem.url
          ? 'Check the URL, or copy the file into the project folder and reference it locally.'
          : `Fix ${file} or the reference to it.`,
      details: { url: file, ...(problem.kind === 'http-error' ? { status: problem.status } : { reason: problem.reason }) },
    });
  }
  for (const problem of facts.browser) {
    // Chromium logs every failed load as a console error too: that one is reported above.
    if (problem.kind !== 'console-error' || /^Failed to load resource/.test(problem.message)) continue;
    findings.push({
      check: 'page',
      code: 'page/console-error',
      severity: 'warning',
      message: `console.error: ${problem.message.split(`${facts.origin}/`).join('')}`,
      element: null,
      time: null,
      file: problem.url ? { path: project(problem.url), line: 0, column: 0 } : null,
      fix: 'Renders do not fail on console errors, but they often explain a wrong frame: read it, or open `seekframe preview`.',
    });
  }
  for (const warning of facts.warnings) {
    const element = warning.details?.host ?? warning.details?.element;
    findings.push({
      check: 'page',
      code: `page/${warning.code}`,
      severity: 'warning',
      message: warning.message.split(`${facts.origin}/`).join(''),
      element: element ? { label: element, selector: element.replace(/^<(\w+)#([^>\s]+)>$/, '#$2'), hosts: [] } : null,
      time: null,
      file: null,
      fix: 'The message says what to change; `render --strict` makes this an error.',
      ...(warning.details ? { details: { ...warning.details } } : {}),
    });
  }
  return findings;
}

/** The URL a request to the project server's remote route stands for (`/__seekframe/remote?url=…`); undefined for any other request. */
function remoteTarget(url: string, origin: string): string | undefined {
  try {
    const parsed = new URL(url);
    if (parsed.origin !== origin || parsed.pathname !== ROOT_ROUTES.remote) return undefined;
    return parsed.searchParams.get('url') ?? undefined;
  } catch {
    return undefined;
  }
}

/** The server's log names this remote URL already: its own failure, or its npm package that is not installed (one finding per package). */
function reportedRemote(url: string, served: readonly SeekframeError[]): boolean {
  let pkg: string | undefined;
  try {
    pkg = parseCdnUrl(url)?.pkg;
  } catch {
    pkg = undefined;
  }
  return served.some((error) => {
    const details = (error.details ?? {}) as { url?: unknown; package?: unknown };
    return details.url === url || (pkg !== undefined && error.code === 'package-not-installed' && details.package === pkg);
  });
}
