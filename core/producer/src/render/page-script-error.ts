import { SeekframeError } from '@seekframe/composition';
import { describePageProblem, type PageProblem } from '@seekframe/engine';

/**
 * Uncaught exceptions fail the render, since a script that threw leaves frames half-built (the
 * runtime's own log of author-script errors is checked by the engine at every seek). Console
 * errors and HTTP errors do not: the problem log reports missing and remote assets with better
 * context, and libraries log harmless console errors.
 */
export function pageScriptError(problems: readonly PageProblem[], url: string): SeekframeError | null {
  const thrown = problems.filter((p): p is Extract<PageProblem, { kind: 'uncaught-error' }> => p.kind === 'uncaught-error');
  if (thrown.length === 0) return null;
  return new SeekframeError(
    'page-script-error',
    `A script in ${url} threw: ${thrown[0]!.message}${thrown.length > 1 ? ` (and ${thrown.length - 1} more)` : ''}. ` +
      'Fix the script (open the composition with `seekframe preview` and check the console).',
    { stage: 'capture', details: { url, errors: thrown.slice(0, 20).map(describePageProblem) } },
  );
}

/**
 * A remote request the page made on its own (fetch, a script-created tag) bypasses the server's
 * remote route; offline or down, it fails in the browser. Name the URL instead of rendering a
 * silently broken frame.
 */
export function remoteRequestError(problems: readonly PageProblem[], origin: string): SeekframeError | null {
  for (const problem of problems) {
    if (problem.kind !== 'request-failed' || !/^https?:\/\//.test(problem.url) || problem.url.startsWith(`${origin}/`)) continue;
    // Aborted requests (a page navigating or an element removed) are not failures.
    if (/ERR_ABORTED/.test(problem.reason)) continue;
    return new SeekframeError(
      'remote-asset-failed',
      `Could not load ${problem.url}: ${problem.reason}. Check the URL and the network, or copy the file into the project folder and reference it locally.`,
      { stage: 'capture', retryable: true, details: { url: problem.url } },
    );
  }
  return null;
}
