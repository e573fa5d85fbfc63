import { open, readFile } from 'node:fs/promises';
import path from 'node:path';
import { isExecutableFile } from '../system/find-executable.js';

/**
 * Debian ships `/usr/bin/chromium` and `/usr/bin/chromium-headless-shell` as shell scripts that
 * call the real binary in /usr/lib/chromium. We launch the real binary: the headless-shell wrapper
 * does not `exec`, so killing the wrapper would leave Chromium running, and the chromium wrapper
 * adds flags from /etc/chromium.d that we do not control.
 */
export async function resolveBrowserBinary(file: string): Promise<{ path: string; wrapper?: string }> {
  if (!(await isScript(file))) return { path: file };
  const text = await readFile(file, 'utf8');
  for (const candidate of scriptTargets(text, file)) {
    if (candidate === file) continue;
    if ((await isExecutableFile(candidate)) && !(await isScript(candidate))) return { path: candidate, wrapper: file };
  }
  return { path: file };
}

async function isScript(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(2);
    await handle.read(head, 0, 2, 0);
    return head.toString('latin1') === '#!';
  } finally {
    await handle.close();
  }
}

/**
 * Absolute paths a wrapper script may run, most likely first. Expands plain `NAME=value`
 * assignments (Debian's wrapper uses `$LIBDIR/$APPNAME`), then prefers paths whose name matches
 * the wrapper's own name.
 */
export function scriptTargets(text: string, wrapperPath: string): string[] {
  const vars = new Map<string, string>();
  const expand = (value: string): string =>
    value.replace(/\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g, (whole, name: string) => vars.get(name) ?? whole);
  // In script order, so `LIBDIR=/usr/lib/$APPNAME` sees the APPNAME set above it.
  for (const match of text.matchAll(/^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=["']?([^\s"'`;]+)["']?\s*$/gm)) {
    if (!vars.has(match[1]!)) vars.set(match[1]!, expand(match[2]!));
  }
  const expanded = expand(text);
  const found: string[] = [];
  for (const match of expanded.matchAll(/(?:^|[\s"'=])(\/[A-Za-z0-9_.+\/-]+)/g)) {
    const candidate = match[1]!;
    if (!found.includes(candidate)) found.push(candidate);
  }
  const own = path.basename(wrapperPath);
  const score = (candidate: string): number => {
    const base = path.basename(candidate);
    if (base === own) return 0;
    if (/chrom|headless/i.test(base)) return 1;
    return 2;
  };
  return found.filter((candidate) => score(candidate) < 2).sort((a, b) => score(a) - score(b));
}
