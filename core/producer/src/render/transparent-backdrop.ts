import type { CapturePage } from '@seekframe/engine';
import type { OutputFormat } from '../plan/render-spec.js';

/** What Chromium paints behind a page with no background of its own: the opaque formats are flattened on it. */
export const FLATTEN_COLOUR = '#ffffff';
/** The formats that keep the page's transparency. */
const ALPHA_FORMATS = ['mov', 'webm', 'png-sequence'] as const;

/**
 * True when the page (as shown now, at 0 s once ready) lets its backdrop through: neither
 * `<html>` nor `<body>` paints a background (CSS propagates either to the canvas) and no visible
 * element covering the whole frame does (a full-frame stage `<div>`, an image, a video, a canvas,
 * or a same-origin frame whose own document paints one). An overlay written for a transparent
 * format looks like this; rendered to mp4 its frames are flattened on white.
 */
export async function showsBackdrop(page: Pick<CapturePage, 'evaluate'>): Promise<boolean> {
  // Helpers are methods of one object: a named function in a page function would be wrapped in
  // esbuild's `__name` when run from sources, which the page does not have.
  return page.evaluate(() => {
    const page = {
      alphaOf(colour: string): number {
        const match = /^rgba?\(([^)]*)\)$/.exec(colour.trim());
        if (!match) return colour === 'transparent' ? 0 : 1; // another syntax: say opaque, never a false alarm
        const parts = (match[1] as string).split(/[\s,/]+/).filter(Boolean);
        if (parts.length < 4) return 1;
        const a = parts[3] as string;
        return a.endsWith('%') ? Number.parseFloat(a) / 100 : Number.parseFloat(a);
      },
      paints(el: Element): boolean {
        const style = getComputedStyle(el);
        return (
          page.alphaOf(style.backgroundColor) >= 1 ||
          style.backgroundImage !== 'none' ||
          ['IMG', 'VIDEO', 'CANVAS', 'OBJECT', 'EMBED'].includes(el.tagName)
        );
      },
      fullyShown(el: Element): boolean {
        for (let node: Element | null = el; node; node = node.parentElement) {
          const style = getComputedStyle(node);
          if (style.display === 'none' || Number(style.opacity) < 1) return false;
        }
        return getComputedStyle(el).visibility === 'visible';
      },
      covered(doc: Document, depth: number): boolean {
        if (page.paints(doc.documentElement) || (doc.body && page.paints(doc.body))) return true;
        const win = doc.defaultView;
        if (!win || !doc.body) return false;
        const [w, h] = [win.innerWidth, win.innerHeight];
        for (const el of doc.body.querySelectorAll('*')) {
          const box = el.getBoundingClientRect();
          if (box.left > 0.5 || box.top > 0.5 || box.right < w - 0.5 || box.bottom < h - 0.5 || !page.fullyShown(el)) continue;
          if (page.paints(el)) return true;
          if (el instanceof HTMLIFrameElement && depth < 4) {
            try {
              if (el.contentDocument && page.covered(el.contentDocument, depth + 1)) return true;
            } catch {
              return true; // a cross-origin frame: cannot tell, say covered
            }
          }
        }
        return false;
      },
    };
    return !page.covered(document, 0);
  });
}

/** The render warning (an error under --strict) for a transparent composition in a format without alpha. */
export function alphaFlattenedProblem(
  entry: string,
  format: OutputFormat,
): { code: string; message: string; details: Record<string, unknown>; stage: 'media' } {
  return {
    code: 'alpha-flattened',
    message:
      `${entry} has a transparent background (nothing paints behind its content at 0 s: no background on <html>, <body> or a full-frame element), ` +
      `and ${format} has no alpha channel, so every frame is flattened on white (${FLATTEN_COLOUR}), the browser's backdrop: white content disappears. ` +
      `Render to mov, webm or png-sequence to keep the transparency (--format mov), or give <body> the background colour you want.`,
    details: { file: entry, format, flattenedOn: FLATTEN_COLOUR, alphaFormats: [...ALPHA_FORMATS] },
    stage: 'media',
  };
}
