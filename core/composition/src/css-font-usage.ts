import { isGenericFontFamily } from './font-family-names.js';

/** One `font-family` list as written, generics removed, with its offset in the scanned text. */
export interface FontStack {
  families: string[];
  offset: number;
}

export interface CssFontUsage {
  /** Family lists from `font-family`, `font` and `--*font*` custom properties (outside `@font-face`). */
  stacks: FontStack[];
  /** Families that an `@font-face` rule of this text defines. */
  declared: string[];
  /** `@import` targets, as written. */
  imports: string[];
}

/** Custom properties named like a font but holding something else (`--font-size: 48px`). */
const NOT_A_FAMILY_PROPERTY = /size|weight|style|height|spacing|feature|variation|stretch|smooth|kerning|synthesis|optical|palette|scale/i;
const FONT_FACE = /@font-face\s*\{([^}]*)\}/gi;
/**
 * `@import "x"`, `@import 'x'`, `@import url("x")`, `@import url('x')`, `@import url(x)`: a quoted
 * URL runs to its closing quote and an unquoted `url()` to its `)`, so a Google Fonts URL keeps the
 * `;` of `wght@400;700` and every `&family=` after it.
 */
const IMPORT = /@import\s+(?:url\(\s*(?:"([^"]*)"|'([^']*)'|([^"'()\s]*))\s*\)|"([^"]*)"|'([^']*)')/gi;
const DECLARATION = /(^|[;{\s])(font-family|font|--[\w-]*font[\w-]*)\s*:\s*([^;{}]+)/gi;
/** A font size (with optional `/line-height`) in the `font` shorthand: the family list follows it. */
const SHORTHAND_SIZE =
  /(?:^|\s)(?:-?[\d.]+(?:px|pt|pc|em|rem|%|vw|vh|vmin|vmax|ex|ch|cm|mm|in|q|lh|rlh|cqw|cqh|cqi|cqb)|xx-small|x-small|small|medium|large|x-large|xx-large|xxx-large|smaller|larger|(?:calc|var|clamp|min|max)\([^)]*\))(?:\s*\/\s*[^\s,]+)?\s+([^\s].*)$/i;

/**
 * Which font families a stylesheet names and which it defines with `@font-face`. A scan, not a
 * full parser: enough to find names in real stylesheets without carrying a CSS engine into the
 * browser bundle. Offsets are into `css` (comments are blanked, not removed, so they stay valid).
 */
export function scanCssFonts(css: string): CssFontUsage {
  const text = css.replace(/\/\*[\s\S]*?(?:\*\/|$)/g, (comment) => ' '.repeat(comment.length));
  const declared: string[] = [];
  const withoutFaces = text.replace(FONT_FACE, (block: string, body: string) => {
    const family = /(?:^|[;\s])font-family\s*:\s*([^;]+)/i.exec(body)?.[1];
    const name = family ? parseFamilyList(family)[0] : undefined;
    if (name) declared.push(name);
    return ' '.repeat(block.length);
  });
  const imports = [...withoutFaces.matchAll(IMPORT)].map((m) => (m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5] ?? '').trim()).filter(Boolean);
  const stacks: FontStack[] = [];
  for (const match of withoutFaces.matchAll(DECLARATION)) {
    const property = (match[2] as string).toLowerCase();
    const value = (match[3] as string).replace(/!important\s*$/i, '').trim();
    const offset = (match.index ?? 0) + (match[1] as string).length;
    let list: string | undefined = value;
    if (property === 'font') list = SHORTHAND_SIZE.exec(value)?.[1];
    else if (property.startsWith('--') && (NOT_A_FAMILY_PROPERTY.test(property) || !looksLikeFamilyList(value))) list = undefined;
    if (!list || /\(/.test(list)) continue;
    const families = parseFamilyList(list).filter((name) => !isGenericFontFamily(name));
    if (families.length > 0) stacks.push({ families, offset });
  }
  return { stacks, declared, imports };
}

const SCRIPT_FONT = /\b(fontFamily|font)\s*[:=]\s*(["'`])((?:(?!\2)[^\n\\])+)\2/g;

/**
 * Family lists in script text: `el.style.fontFamily = 'Inter'`, `gsap.set(x, { fontFamily: "Inter" })`,
 * `ctx.font = '700 48px Montserrat'` (a `font` value counts only when it has a size, like the shorthand).
 */
export function scanScriptFonts(script: string): string[][] {
  const stacks: string[][] = [];
  for (const match of script.matchAll(SCRIPT_FONT)) {
    const value = (match[3] as string).trim();
    const list = match[1] === 'font' ? SHORTHAND_SIZE.exec(value)?.[1] : value;
    if (!list || /[(${}]/.test(list)) continue;
    const families = parseFamilyList(list).filter((name) => !isGenericFontFamily(name));
    if (families.length > 0) stacks.push(families);
  }
  return stacks;
}

/** `"Open Sans", Inter, sans-serif` -> `['Open Sans', 'Inter', 'sans-serif']` (quotes removed, unquoted words joined). */
export function parseFamilyList(value: string): string[] {
  const names: string[] = [];
  for (const item of splitOutsideQuotes(value)) {
    const trimmed = item.trim();
    const quoted = /^(["'])(.*)\1$/s.exec(trimmed);
    const name = quoted ? (quoted[2] as string).trim() : trimmed.replace(/\s+/g, ' ');
    if (name && !/[{}()]/.test(name)) names.push(name);
  }
  return names;
}

/** A custom property holds a family list when some item is quoted or the list ends with a generic. */
function looksLikeFamilyList(value: string): boolean {
  const items = splitOutsideQuotes(value).map((s) => s.trim());
  if (items.some((item) => /^["']/.test(item))) return true;
  const last = items[items.length - 1];
  return items.length > 1 && last !== undefined && isGenericFontFamily(last);
}

function splitOutsideQuotes(value: string): string[] {
  const items: string[] = [];
  let current = '';
  let quote: string | null = null;
  for (const ch of value) {
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
    } else if (ch === ',') {
      items.push(current);
      current = '';
      continue;
    }
    current += ch;
  }
  items.push(current);
  return items;
}
