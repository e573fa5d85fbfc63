import type { CDPSession } from 'puppeteer-core';

/**
 * The page a canvas capture loads instead of the composition: the composition, unchanged, in a
 * same-origin `<iframe>` that is the one child of a `<canvas layoutsubtree>` (Chromium's
 * HTML-in-canvas: https://github.com/WICG/html-in-canvas). `drawElementImage(iframe)` then paints
 * the composition's latest paint into the canvas, without the compositor's full redraw, the copy
 * to the browser process and the JPEG encode a screenshot costs.
 *
 * Why an iframe rather than moving the composition's elements into a canvas: the document stays
 * exactly what the author wrote (its `<html>`/`<body>` backgrounds and margins, `body > x`
 * selectors, `position: fixed`, a root that is `<html>` itself), and moving elements would
 * restart their CSS animations and reload their iframes. The runtime in the iframe is the entry
 * runtime (no `__seekframeInstance` on its frame element), as under `<seekframe-player>`.
 *
 * The host must share the composition's origin (a cross-origin frame is never drawn), so it is
 * answered by DevTools request interception at a reserved path of the project's origin, never
 * asked of the project server.
 */
export const CANVAS_HOST_PATH = '/__seekframe-canvas-host.html';
export const CANVAS_ID = 'seekframe-canvas';
export const COMPOSITION_FRAME_ID = 'seekframe-composition';

/**
 * The host page for `url` at `width` x `height` CSS pixels; its canvas has `scale` times as many
 * pixels each way (--scale: the page is painted at that device scale factor and drawn 1:1).
 */
export function canvasHostHtml(url: string, width: number, height: number, scale = 1): string {
  const size = `width:${width}px;height:${height}px`;
  return (
    '<!doctype html><html><head><meta charset="utf-8"><style>' +
    'html,body{margin:0;padding:0;overflow:hidden;background:transparent}' +
    'canvas,iframe{display:block;border:0;margin:0;padding:0}' +
    `</style></head><body><canvas id="${CANVAS_ID}" layoutsubtree width="${Math.round(width * scale)}" height="${Math.round(height * scale)}" style="${size}">` +
    `<iframe id="${COMPOSITION_FRAME_ID}" src="${escapeAttribute(url)}" scrolling="no" style="${size}"></iframe>` +
    '</canvas></body></html>'
  );
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/**
 * Answers the host URL from DevTools until the returned function is called; every other request
 * goes to the network untouched (only this one URL is intercepted).
 */
export async function serveCanvasHost(cdp: CDPSession, hostUrl: string, html: string): Promise<() => Promise<void>> {
  const body = Buffer.from(html).toString('base64');
  const onPaused = (event: { requestId: string; request: { url: string } }): void => {
    const answer =
      event.request.url === hostUrl
        ? cdp.send('Fetch.fulfillRequest', {
            requestId: event.requestId,
            responseCode: 200,
            responseHeaders: [
              { name: 'content-type', value: 'text/html; charset=utf-8' },
              { name: 'cache-control', value: 'no-store' },
            ],
            body,
          })
        : cdp.send('Fetch.continueRequest', { requestId: event.requestId });
    answer.catch(() => undefined); // the page may be gone meanwhile
  };
  cdp.on('Fetch.requestPaused', onPaused);
  await cdp.send('Fetch.enable', { patterns: [{ urlPattern: hostUrl, requestStage: 'Request' }] });
  return async () => {
    cdp.off('Fetch.requestPaused', onPaused);
    await cdp.send('Fetch.disable').catch(() => undefined);
  };
}
