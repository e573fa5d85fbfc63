import { activeAt, ATTR, captionPages, parseCaptionTrack, type CaptionPage, type CaptionTrack } from '@seekframe/composition';
import { describeElement } from './clip-timeline.js';
import type { ErrorLog } from './error-log.js';

/** Classes the caption element's content gets, for the author's CSS (documented on the Captions page). */
export const CAPTION_CLASSES = {
  line: 'seekframe-caption-line',
  word: 'seekframe-caption-word',
  active: 'seekframe-word-active',
  spoken: 'seekframe-word-spoken',
  upcoming: 'seekframe-word-upcoming',
} as const;

const DEFAULT_LINES = 2;

/**
 * Defaults with no specificity (`:where`), so any rule of the author's wins: one block per line,
 * no wrapping inside a line (the layout already broke them), the spoken word in a highlight colour.
 */
function captionStyles(): string {
  return (
    `:where(.${CAPTION_CLASSES.line}){display:block;white-space:pre}` +
    `:where(.${CAPTION_CLASSES.active}){color:var(--seekframe-caption-highlight,#ffd400)}`
  );
}

/** `[data-captions]` elements of a document (found once its scripts ran), with their default styles; undefined when it has none. */
export function attachCaptions(doc: Document, variables: Record<string, unknown>, log: ErrorLog): CaptionElements | undefined {
  const captions = new CaptionElements(doc, variables, log);
  if (captions.size === 0) return undefined;
  const style = doc.createElement('style');
  style.setAttribute('data-seekframe', 'captions');
  style.textContent = captionStyles();
  doc.head.prepend(style);
  return captions;
}

/**
 * The caption elements of one document: every `[data-captions]` shows the caption track of the
 * variable it names. What an element shows is a function of the seek time alone (the page of
 * the segment active at t, each word active, spoken or upcoming at t), so frame N looks the same
 * in the preview and the render, whatever order frames are visited in.
 */
export class CaptionElements {
  private readonly boxes: CaptionBox[] = [];

  constructor(doc: Document, variables: Record<string, unknown>, log: ErrorLog) {
    for (const el of doc.querySelectorAll<HTMLElement>(`[${ATTR.captions}]`)) {
      const id = el.getAttribute(ATTR.captions) ?? '';
      const where = `${describeElement(el)} in ${doc.location.href}`;
      if (!(id in variables)) {
        const known = Object.keys(variables).join(', ') || 'none';
        log.add(
          `${where}: ${ATTR.captions}="${id}" names no variable of the composition (variables: ${known}); declare a variable of type "captions" with that id`,
        );
        continue;
      }
      const parsed = parseCaptionTrack(variables[id]);
      if (!parsed.ok) {
        const first = parsed.problems[0]!;
        log.add(`${where}: variable "${id}": ${first.path ? `${first.path} ` : ''}${first.message}`);
        continue;
      }
      const lines = Number(el.getAttribute(ATTR.captionLines) ?? DEFAULT_LINES);
      this.boxes.push(new CaptionBox(el, id, parsed.track, Number.isInteger(lines) && lines > 0 ? lines : DEFAULT_LINES));
    }
  }

  get size(): number {
    return this.boxes.length;
  }

  /**
   * Loads each element's font for the characters its transcript uses before anything is laid
   * out: the lines are measured with it, and a face split by unicode-range (CJK) loads only the
   * parts text asks for.
   */
  async loadFonts(doc: Document): Promise<void> {
    await Promise.all(this.boxes.map((box) => doc.fonts.load(box.font(), box.sampleText()).catch(() => undefined)));
  }

  show(t: number): void {
    for (const box of this.boxes) box.show(t);
  }

  /** Each element with the times its transcript shows text (for `inspectTimeline`). */
  spans(): Array<{ el: HTMLElement; variable: string; segments: Array<{ start: number; end: number }> }> {
    return this.boxes.map((box) => ({
      el: box.el,
      variable: box.variable,
      segments: box.track.segments.map(({ start, end }) => ({ start, end })),
    }));
  }
}

interface ShownWord {
  span: HTMLElement;
  word: number;
}

class CaptionBox {
  private readonly layouts = new Map<string, CaptionPage[]>();
  private shown: { segment: number; page: number; key: string } | undefined;
  private spans: ShownWord[] = [];
  private canvas: CanvasRenderingContext2D | null | undefined;

  constructor(
    readonly el: HTMLElement,
    readonly variable: string,
    readonly track: CaptionTrack,
    private readonly maxLines: number,
  ) {}

  font(): string {
    return this.style().font || '16px sans-serif';
  }

  sampleText(): string {
    return (
      this.track.segments
        .flatMap((segment) => segment.words.map((word) => word.text))
        .join(' ')
        .slice(0, 2000) || 'a'
    );
  }

  show(t: number): void {
    const segmentIndex = this.track.segments.findIndex((segment) => activeAt(t, segment.start, segment.end));
    if (segmentIndex < 0) {
      if (this.shown) this.clear();
      return;
    }
    const segment = this.track.segments[segmentIndex]!;
    const { key, pages } = this.pages(segmentIndex);
    const pageIndex = Math.max(
      0,
      pages.findIndex((page) => activeAt(t, page.start, page.end)),
    );
    if (this.shown?.segment !== segmentIndex || this.shown.page !== pageIndex || this.shown.key !== key) {
      this.render(pages[pageIndex]!);
      this.shown = { segment: segmentIndex, page: pageIndex, key };
    }
    for (const { span, word } of this.spans) {
      const { start, end } = segment.words[word]!;
      const state = activeAt(t, start, end) ? CAPTION_CLASSES.active : t >= end ? CAPTION_CLASSES.spoken : CAPTION_CLASSES.upcoming;
      const className = `${CAPTION_CLASSES.word} ${state}`;
      if (span.className !== className) span.className = className;
    }
  }

  private clear(): void {
    this.el.replaceChildren();
    this.spans = [];
    this.shown = undefined;
  }

  private render(page: CaptionPage): void {
    const doc = this.el.ownerDocument;
    this.spans = [];
    const lines = page.lines.map((line) => {
      const div = doc.createElement('div');
      div.className = CAPTION_CLASSES.line;
      line.forEach((piece, i) => {
        if (i > 0 && piece.space) div.append(' ');
        const span = doc.createElement('span');
        span.textContent = piece.text;
        div.append(span);
        this.spans.push({ span, word: piece.word });
      });
      return div;
    });
    this.el.replaceChildren(...lines);
  }

  /** The segment's pages for the element's current width and font (cached per width and font). */
  private pages(segment: number): { key: string; pages: CaptionPage[] } {
    const style = this.style();
    const width = this.el.clientWidth - (parseFloat(style.paddingLeft) || 0) - (parseFloat(style.paddingRight) || 0);
    const maxWidth = width > 0 ? width : Number.POSITIVE_INFINITY;
    const key = `${maxWidth}|${style.font}|${style.letterSpacing}|${style.wordSpacing}|${style.textTransform}`;
    const cacheKey = `${segment}|${key}`;
    let pages = this.layouts.get(cacheKey);
    if (!pages) {
      const measure = this.measurer(style);
      pages = captionPages(this.track.segments[segment]!, { maxWidth, maxLines: this.maxLines, measure });
      this.layouts.set(cacheKey, pages);
    }
    return { key, pages };
  }

  /** Text width in CSS pixels with the element's font, letter spacing and case. */
  private measurer(style: CSSStyleDeclaration): (text: string) => number {
    this.canvas ??= this.el.ownerDocument.createElement('canvas').getContext('2d');
    const ctx = this.canvas;
    const transform =
      style.textTransform === 'uppercase'
        ? (s: string) => s.toUpperCase()
        : style.textTransform === 'lowercase'
          ? (s: string) => s.toLowerCase()
          : (s: string) => s;
    if (!ctx) return (text) => text.length * (parseFloat(style.fontSize) || 16) * 0.6;
    ctx.font = this.font();
    // Chromium's canvas takes the CSS spacings too; a space's width then includes word-spacing.
    if ('letterSpacing' in ctx)
      (ctx as { letterSpacing: string }).letterSpacing = style.letterSpacing === 'normal' ? '0px' : style.letterSpacing;
    if ('wordSpacing' in ctx) (ctx as { wordSpacing: string }).wordSpacing = style.wordSpacing === 'normal' ? '0px' : style.wordSpacing;
    return (text) => ctx.measureText(transform(text)).width;
  }

  private style(): CSSStyleDeclaration {
    return this.el.ownerDocument.defaultView!.getComputedStyle(this.el);
  }
}
