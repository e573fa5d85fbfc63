import { readFileSync } from 'node:fs';

/** Both src/ (tests) and dist/ (the bin) sit one level below the package root. */
export function readVersion(): string {
  const text = readFileSync(new URL('../package.json', import.meta.url), 'utf8');
  const version = (JSON.parse(text) as { version?: unknown }).version;
  return typeof version === 'string' ? version : '0.0.0';
}
