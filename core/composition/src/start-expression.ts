/**
 * `data-start` syntax: seconds (`"1.5"`), another clip's or composition's id meaning "right after
 * it ends" (`"intro"`), or that plus/minus an offset in seconds (`"intro + 0.5"`, `"intro-0.25"`).
 */
export type StartExpression =
  | { kind: 'seconds'; seconds: number }
  | { kind: 'ref'; id: string; offset: number }
  | { kind: 'invalid'; reason: string };

const SECONDS = /^\d+(?:\.\d+)?$|^\.\d+$/;
const NUMBER = '(\\d+(?:\\.\\d+)?|\\.\\d+)';
const ID = '([A-Za-z_][\\w:.-]*?)';
const WITH_OFFSET = new RegExp(`^${ID}\\s*([+-])\\s*${NUMBER}$`);
const PLAIN_ID = /^[A-Za-z_][\w:.-]*$/;

export function parseStartExpression(raw: string): StartExpression {
  const text = raw.trim();
  if (text === '') return { kind: 'invalid', reason: 'is empty; write seconds ("1.5") or the id of a clip to follow ("intro")' };
  if (SECONDS.test(text)) return { kind: 'seconds', seconds: Number(text) };
  if (/^-\s*(\d|\.\d)/.test(text)) return { kind: 'invalid', reason: `"${raw}" is negative; a start must be 0 or more seconds` };
  // A plain token is an id first: "scene-2" is the clip "scene-2", not "scene" minus 2.
  // The resolver retries such ids as "<id> - n" when the whole token names no clip.
  if (PLAIN_ID.test(text)) return { kind: 'ref', id: text, offset: 0 };
  const match = WITH_OFFSET.exec(text);
  if (match) {
    const [, id = '', sign, amount = '0'] = match;
    return { kind: 'ref', id, offset: sign === '-' ? -Number(amount) : Number(amount) };
  }
  return {
    kind: 'invalid',
    reason: `"${raw}" is not a start time; write seconds ("1.5"), an id ("intro") or an id with an offset ("intro + 0.5")`,
  };
}

/** For `scene-2`-style tokens: the reading "scene" minus 2, or undefined if the token has no such tail. */
export function splitTrailingOffset(id: string): { id: string; offset: number } | undefined {
  const match = /^(.*[^-])-(\d+(?:\.\d+)?)$/.exec(id);
  if (!match || !match[1] || !PLAIN_ID.test(match[1])) return undefined;
  return { id: match[1], offset: -Number(match[2]) };
}
