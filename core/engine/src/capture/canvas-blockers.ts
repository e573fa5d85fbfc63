import type { CapturePage } from './capture-page.js';

/** Something in a page that canvas capture would draw wrong (or not at all), with where it is. */
export interface CanvasBlocker {
  kind: 'canvas' | 'cross-origin-frame' | 'plugin' | 'cross-origin-css-image' | 'backdrop-filter' | 'backface-hidden';
  /** A short description of the first element found, e.g. `<canvas#chart>`, and how many there are. */
  where: string;
}

/**
 * What drawElementImage does not draw, found in the loaded page (its same-origin frames, i.e.
 * sub-compositions, included). Measured in Chromium 156 with --disable-gpu, each next to a
 * beginframe capture of the same page:
 * - a `<canvas>` (2D, also with willReadFrequently, or WebGL) draws as an empty box: its pixels
 *   are a layer of their own, outside the paint that drawElementImage replays. This includes the
 *   canvases the runtime draws `data-color-grading` into;
 * - a cross-origin `<iframe>` draws empty (by design: a page must not read another origin's
 *   pixels), and so do plugins (`<object>`, `<embed>`);
 * - a CSS image (`background-image` etc.) from another origin draws empty, while a cross-origin
 *   `<img>` draws (and the project server serves remote assets from the page's own origin anyway);
 * - `backdrop-filter` filters another backdrop than the screen's (27 dB against beginframe on a
 *   blurred, hue-rotated glass panel);
 * - `backface-visibility: hidden` is not honoured: a card flipped away from the viewer still
 *   draws its back face (corpus/conformance/css-3d-flip shows the back face's colour before the
 *   flip), while filters, blend modes, masks, clip paths, shadows, other 3D transforms, SVG and
 *   text came out identical to the last bit.
 * A page with any of these is captured with beginframe instead, and the render says why.
 */
export async function findCanvasBlockers(page: Pick<CapturePage, 'evaluate'>): Promise<CanvasBlocker[]> {
  // No named function inside: code run from TypeScript sources (tsx, esbuild's keepNames) wraps
  // named functions in a `__name` helper that does not exist in the page.
  return page.evaluate(() => {
    const marks: Array<[string, Element]> = [];
    const docs: Document[] = [document];
    const properties = ['background-image', 'border-image-source', 'mask-image', 'list-style-image'];
    for (let index = 0; index < docs.length; index++) {
      const doc = docs[index]!;
      const origin = doc.defaultView?.location.origin ?? '';
      for (const element of doc.querySelectorAll('canvas')) marks.push(['canvas', element]);
      for (const element of doc.querySelectorAll('object, embed')) marks.push(['plugin', element]);
      for (const frame of doc.querySelectorAll('iframe, frame')) {
        let inner: Document | null = null;
        try {
          inner = (frame as HTMLIFrameElement).contentDocument;
        } catch {
          inner = null;
        }
        if (inner) docs.push(inner);
        else marks.push(['cross-origin-frame', frame]);
      }
      for (const element of doc.querySelectorAll('*')) {
        const style = doc.defaultView!.getComputedStyle(element);
        const backdrop = style.getPropertyValue('backdrop-filter');
        if (backdrop && backdrop !== 'none') marks.push(['backdrop-filter', element]);
        if (style.getPropertyValue('backface-visibility') === 'hidden') marks.push(['backface-hidden', element]);
        for (const property of properties) {
          const value = style.getPropertyValue(property);
          if (!value.includes('url(')) continue;
          for (const match of value.matchAll(/url\("?([^")]+)"?\)/g)) {
            let url: URL;
            try {
              url = new URL(match[1]!, doc.baseURI);
            } catch {
              continue;
            }
            if ((url.protocol === 'http:' || url.protocol === 'https:') && url.origin !== origin)
              marks.push(['cross-origin-css-image', element]);
          }
        }
      }
    }
    const found = new Map<string, { kind: string; first: string; count: number }>();
    for (const [kind, element] of marks) {
      const entry = found.get(kind);
      if (entry) entry.count++;
      else
        found.set(kind, {
          kind,
          first: `<${element.localName}${element.id ? `#${element.id}` : ''}${element.classList.length > 0 ? `.${[...element.classList].join('.')}` : ''}>`,
          count: 1,
        });
    }
    return [...found.values()].map(({ kind, first, count }) => ({
      kind: kind as CanvasBlocker['kind'],
      where: count > 1 ? `${first} and ${count - 1} more` : first,
    }));
  });
}

/** One sentence for the render's warning and report. */
export function describeCanvasBlockers(blockers: readonly CanvasBlocker[]): string {
  const what: Record<CanvasBlocker['kind'], string> = {
    canvas: "a <canvas> (canvas capture does not draw a canvas's own pixels; data-color-grading draws into canvases too)",
    'cross-origin-frame': "a cross-origin frame (drawn empty: its pixels are another origin's)",
    plugin: 'a plugin (<object>/<embed>)',
    'cross-origin-css-image': 'a CSS image from another origin (drawn empty)',
    'backdrop-filter': 'a backdrop-filter (drawn over another backdrop than the screen shows)',
    'backface-hidden': 'backface-visibility: hidden (canvas capture draws the hidden back faces)',
  };
  return blockers.map((blocker) => `${what[blocker.kind]}: ${blocker.where}`).join('; ');
}
