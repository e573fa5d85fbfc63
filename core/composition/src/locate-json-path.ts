/**
 * Finds where a value sits inside JSON text, so lint findings about one declaration or one
 * host value point at it instead of at the start of a long attribute. Only called on text that
 * `JSON.parse` accepted; on anything unexpected it gives up and returns the best offset so far.
 */
export type JsonPath = readonly (string | number)[];

/** Offset of the deepest node on `path` that exists (an object member points at its key). */
export function locateJsonPath(text: string, path: JsonPath): number {
  let i = 0;
  const ws = (): void => {
    while (i < text.length && ' \t\r\n'.includes(text[i] as string)) i++;
  };
  const skipString = (): void => {
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
  };
  const skipValue = (): void => {
    ws();
    const open = text[i];
    if (open === '"') return skipString();
    if (open === '{' || open === '[') {
      i++;
      let depth = 1;
      while (i < text.length && depth > 0) {
        const c = text[i];
        if (c === '"') {
          skipString();
          continue;
        }
        if (c === '{' || c === '[') depth++;
        else if (c === '}' || c === ']') depth--;
        i++;
      }
      return;
    }
    while (i < text.length && !' \t\r\n,]}'.includes(text[i] as string)) i++;
  };

  ws();
  let best = i;
  for (const key of path) {
    ws();
    const open = text[i];
    if (typeof key === 'number' && open === '[') {
      i++;
      for (let n = 0; ; n++) {
        ws();
        if (text[i] === ']' || i >= text.length) return best;
        if (n === key) break;
        skipValue();
        ws();
        if (text[i] !== ',') return best;
        i++;
      }
      best = i;
    } else if (typeof key === 'string' && open === '{') {
      i++;
      for (;;) {
        ws();
        if (text[i] !== '"') return best;
        const keyStart = i;
        skipString();
        let name: unknown;
        try {
          name = JSON.parse(text.slice(keyStart, i));
        } catch {
          return best;
        }
        ws();
        if (text[i] !== ':') return best;
        i++;
        if (name === key) {
          best = keyStart;
          break;
        }
        skipValue();
        ws();
        if (text[i] !== ',') return best;
        i++;
      }
    } else {
      return best;
    }
  }
  return best;
}

/** Turns a dotted problem path (`options.1.value`) into JSON path segments. */
export function splitDottedPath(path: string): (string | number)[] {
  return path === '' ? [] : path.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

/**
 * The character offset a `JSON.parse` error points at, if the engine says: V8 "at position N",
 * Firefox "at line L column C", or the end for truncated input.
 */
export function jsonErrorOffset(message: string, text: string): number | undefined {
  const position = /at position (\d+)/.exec(message);
  if (position) return Number(position[1]);
  const lineColumn = /at line (\d+) column (\d+)/.exec(message);
  if (lineColumn) {
    const lines = text.split('\n').slice(0, Number(lineColumn[1]) - 1);
    return lines.reduce((sum, line) => sum + line.length + 1, 0) + Number(lineColumn[2]) - 1;
  }
  if (/end of (JSON )?(input|data)/i.test(message)) return text.length;
  return undefined;
}

/** A `JSON.parse` error message without the echo of the whole input that V8 appends. */
export function shortJsonError(message: string): string {
  return message.replace(/, "[\s\S]*" is not valid JSON$/, '');
}
