import { SeekframeError } from '@seekframe/composition';

/**
 * The engine reports uncaught exceptions, console errors and failed requests together; the
 * runtime keeps the errors author scripts threw (also inside timers and seek callbacks). Those
 * fail the render, since a script that threw leaves frames half-built. Console messages and failed
 * requests do not: the project server reports missing and remote assets with better context, and
 * libraries log harmless console errors.
 */
export function pageScriptError(errors: readonly string[], url: string): SeekframeError | null {
  const scriptErrors = errors.filter((e) => !/^(Request failed|HTTP \d{3} for|Console error)/.test(e));
  if (scriptErrors.length === 0) return null;
  return new SeekframeError(
    'page-script-error',
    `A script in ${url} threw: ${scriptErrors[0]}${scriptErrors.length > 1 ? ` (and ${scriptErrors.length - 1} more)` : ''}. ` +
      'Fix the script (open the composition with `seekframe preview` and check the console).',
    { stage: 'capture', details: { url, errors: scriptErrors.slice(0, 20) } },
  );
}

/**
 * A remote request the page made on its own (fetch, a script-created tag) bypasses the server's
 * remote route; offline or down, it fails in the browser. Name the URL instead of rendering a
 * silently broken frame.
 */
export function remoteRequestError(errors: readonly string[], origin: string): SeekframeError | null {
  for (const line of errors) {
    const match = /^Request failed: (https?:\/\/\S+) \((.*)\)$/.exec(line);
    if (!match || match[1]!.startsWith(`${origin}/`)) continue;
    // Aborted requests (a page navigating or an element removed) are not failures.
    if (/ERR_ABORTED/.test(match[2]!)) continue;
    return new SeekframeError(
      'remote-asset-failed',
      `Could not load ${match[1]}: ${match[2]}. Check the URL and the network, or copy the file into the project folder and reference it locally.`,
      { stage: 'capture', retryable: true, details: { url: match[1] } },
    );
  }
  return null;
}
