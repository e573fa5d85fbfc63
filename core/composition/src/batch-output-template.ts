import type { BatchRow } from './batch-rows.js';

/**
 * `--output` of a batch: literal text with `{key}` placeholders taken from the row and `{index}`
 * (the row's 0-based position). Values are sanitised into one safe file-name segment, so a row
 * can never add folders, hidden files or `..` to the path.
 */

const PLACEHOLDER = /\{([^{}]+)\}/g;
const MAX_SEGMENT = 80;

/** The placeholder names a template uses, in order of first appearance. */
export function templatePlaceholders(template: string): string[] {
  return [...new Set([...template.matchAll(PLACEHOLDER)].map((match) => match[1]!.trim()))];
}

/**
 * A value as a file-name segment: every run of characters other than letters, digits, `.`, `_`
 * and `-` becomes one `-`; leading/trailing `-` and `.` are dropped; at most 80 characters;
 * `_` when nothing is left. `"Hello World/2"` -> `Hello-World-2`.
 */
export function sanitizeFileSegment(value: string): string {
  const cleaned = value
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}._-]+/gu, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, MAX_SEGMENT)
    .replace(/[-.]+$/g, '');
  return cleaned === '' ? '_' : cleaned;
}

/** Fills a template for one row; `missing` lists placeholders the row does not have. */
export function expandOutputTemplate(template: string, row: BatchRow, index: number): { output: string; missing: string[] } {
  const missing: string[] = [];
  const output = template.replace(PLACEHOLDER, (_, raw: string) => {
    const key = raw.trim();
    // {index} is always the row's position, even if a row has its own "index" key.
    if (key === 'index') return String(index);
    // A transcript or other structure cannot name a file: it counts as not there.
    if (!Object.hasOwn(row, key) || typeof row[key] === 'object') {
      missing.push(key);
      return '';
    }
    return sanitizeFileSegment(String(row[key]));
  });
  return { output, missing };
}
