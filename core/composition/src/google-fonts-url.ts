/** One face (or weight range) a Google Fonts URL asks for. */
export interface GoogleFontFace {
  style: 'normal' | 'italic';
  minWeight: number;
  maxWeight: number;
}

export interface GoogleFontFamilyRequest {
  /** As written in the URL (`+` decoded to a space). */
  family: string;
  faces: GoogleFontFace[];
}

export interface GoogleFontsRequest {
  families: GoogleFontFamilyRequest[];
  /** `display=swap` etc., copied into `font-display`. */
  display?: string;
}

const HOST = 'fonts.googleapis.com';

/**
 * Reads a Google Fonts stylesheet URL: the css2 API (`/css2?family=Inter:ital,wght@0,400;1,700`,
 * ranges `100..900`) and the older one (`/css?family=Roboto:400,700italic|Open+Sans`). Null for
 * any other URL. A family without axes means regular 400, as Google answers it.
 */
export function parseGoogleFontsUrl(url: string): GoogleFontsRequest | null {
  // A small reader instead of URL: this package has no DOM or Node globals.
  const match = /^(?:https?:)?\/\/([^/?#:]+)(?::\d+)?(\/[^?#]*)?(?:\?([^#]*))?/i.exec(url.trim());
  if (!match || (match[1] ?? '').toLowerCase() !== HOST) return null;
  const path = (match[2] ?? '').replace(/\/+$/, '');
  if (path !== '/css' && path !== '/css2') return null;
  const params = parseQuery(match[3] ?? '');
  const values = params.filter(([key]) => key === 'family').map(([, value]) => value);
  const families: GoogleFontFamilyRequest[] = [];
  for (const value of values) {
    if (path === '/css2') {
      const family = parseCss2Family(value);
      if (family) families.push(family);
    } else {
      for (const part of value.split('|')) {
        const family = parseCss1Family(part);
        if (family) families.push(family);
      }
    }
  }
  const display = params.find(([key]) => key === 'display')?.[1];
  return { families, ...(display && /^[a-z]+$/.test(display) ? { display } : {}) };
}

const REGULAR: GoogleFontFace = { style: 'normal', minWeight: 400, maxWeight: 400 };

function parseCss2Family(value: string): GoogleFontFamilyRequest | null {
  const [rawName, spec] = value.split(':', 2);
  const family = (rawName ?? '').trim();
  if (!family) return null;
  if (!spec) return { family, faces: [REGULAR] };
  const [axesText, tuplesText] = spec.split('@', 2);
  const axes = (axesText ?? '').split(',').map((a) => a.trim());
  const ital = axes.indexOf('ital');
  const wght = axes.indexOf('wght');
  const faces: GoogleFontFace[] = [];
  for (const tuple of (tuplesText ?? '').split(';')) {
    const values = tuple.split(',').map((v) => v.trim());
    if (values.length !== axes.length) continue;
    const style = ital >= 0 && values[ital] === '1' ? 'italic' : 'normal';
    const weight = wght >= 0 ? parseWeightRange(values[wght] ?? '') : [400, 400];
    if (weight) faces.push({ style, minWeight: weight[0] as number, maxWeight: weight[1] as number });
  }
  return { family, faces: faces.length > 0 ? faces : [REGULAR] };
}

function parseWeightRange(text: string): [number, number] | null {
  const range = /^(\d+(?:\.\d+)?)\.\.(\d+(?:\.\d+)?)$/.exec(text);
  if (range) return [Number(range[1]), Number(range[2])];
  return /^\d+(?:\.\d+)?$/.test(text) ? [Number(text), Number(text)] : null;
}

/** css v1 variants: `400`, `700i`, `700italic`, `italic`, `bold`, `b`, `bi`, `bolditalic`, `regular`, `r`. */
function parseCss1Family(part: string): GoogleFontFamilyRequest | null {
  const [rawName, variantsText] = part.split(':', 2);
  const family = (rawName ?? '').trim();
  if (!family) return null;
  const faces: GoogleFontFace[] = [];
  for (const raw of (variantsText ?? '').split(',')) {
    const variant = raw.trim().toLowerCase();
    if (!variant) continue;
    const match = /^(\d{3})?(i|italic)?$/.exec(variant);
    let weight = 400;
    let italic = false;
    if (match && (match[1] || match[2])) {
      weight = match[1] ? Number(match[1]) : 400;
      italic = Boolean(match[2]);
    } else if (variant === 'bold' || variant === 'b') weight = 700;
    else if (variant === 'bolditalic' || variant === 'bi') [weight, italic] = [700, true];
    else if (variant !== 'regular' && variant !== 'r') continue;
    faces.push({ style: italic ? 'italic' : 'normal', minWeight: weight, maxWeight: weight });
  }
  return { family, faces: faces.length > 0 ? faces : [REGULAR] };
}

function parseQuery(query: string): [string, string][] {
  const out: [string, string][] = [];
  for (const part of query.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const decode = (text: string): string => {
      try {
        return decodeURIComponent(text.replace(/\+/g, ' '));
      } catch {
        return text;
      }
    };
    out.push(eq < 0 ? [decode(part), ''] : [decode(part.slice(0, eq)), decode(part.slice(eq + 1))]);
  }
  return out;
}
