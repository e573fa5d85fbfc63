import { SeekframeError } from '@seekframe/composition';

/**
 * The page's main thread stopped answering (an endless loop in a script or an onSeek callback):
 * no amount of waiting helps, so the render fails and the browser is killed.
 */
export function unresponsiveError(url: string, where: string, waitedMs: number, details: Record<string, unknown> = {}): SeekframeError {
  return new SeekframeError(
    'page-unresponsive',
    `${url} stopped responding ${where}: its main thread did not answer for ${waitedMs} ms (an endless loop in a script or an onSeek callback?). ` +
      'The browser was stopped. Fix the script that blocks; a page must return control after each seek.',
    { stage: 'capture', details: { url, ...details } },
  );
}

/** The page opened alert()/confirm()/prompt(): a render cannot answer it, so it fails. */
export function dialogError(url: string, where: string, dialogs: string[], details: Record<string, unknown> = {}): SeekframeError {
  return new SeekframeError(
    'page-dialog',
    `${url} opened ${dialogs.slice(0, 3).join(', ')}${dialogs.length > 3 ? ` (+${dialogs.length - 3} more)` : ''} ${where}. ` +
      'Nobody can answer a dialog during a render (it was dismissed); remove the alert()/confirm()/prompt() call.',
    { stage: 'capture', details: { url, dialogs: dialogs.slice(0, 20), ...details } },
  );
}
