import { readFile } from 'node:fs/promises';

let cached: Promise<string> | undefined;

/** This producer's version (from its package.json, beside src/ and dist/ alike): plans record it. */
export function seekframeVersion(): Promise<string> {
  cached ??= readFile(new URL('../../package.json', import.meta.url), 'utf8').then(
    (text) => String((JSON.parse(text) as { version?: unknown }).version ?? 'unknown'),
    () => 'unknown',
  );
  return cached;
}
