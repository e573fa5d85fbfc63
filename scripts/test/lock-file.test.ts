import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

interface LockEntry {
  version?: string;
  optionalDependencies?: Record<string, string>;
}

/**
 * Optional dependencies of locked packages that have no entry in the lock where node would find
 * them. npm on one machine may leave out other platforms' binaries (`@rollup/rollup-darwin-arm64`,
 * `@next/swc-darwin-arm64`...); `npm ci` on that other platform then installs without them, or
 * refuses the lock. A complete lock names every one, so one committed lock serves Linux and macOS.
 */
export function missingOptionalEntries(lock: { packages: Record<string, LockEntry> }): string[] {
  const missing: string[] = [];
  for (const [location, entry] of Object.entries(lock.packages)) {
    for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) {
      const found = resolve(lock.packages, location, name);
      // Found under that name but another version: npm would install the wrong binary (or none).
      if (!found || !satisfies(found.version ?? '', range)) missing.push(`${location || '(root)'} -> ${name}@${range}`);
    }
  }
  return missing;
}

function resolve(packages: Record<string, LockEntry>, from: string, name: string): LockEntry | undefined {
  // node's lookup: <from>/node_modules/<name>, then each folder above, up to the root's node_modules.
  let dir = from;
  for (;;) {
    const entry = packages[`${dir ? `${dir}/` : ''}node_modules/${name}`];
    if (entry) return entry;
    if (!dir) return undefined;
    const cut = dir.lastIndexOf('/node_modules/');
    dir = cut >= 0 ? dir.slice(0, cut) : dir.includes('/') ? dir.slice(0, dir.lastIndexOf('/')) : '';
  }
}

/** The range forms optional dependencies use here: `1.2.3`, `^1.2.3`, `~1.2.3` (anything else passes). */
export function satisfies(version: string, range: string): boolean {
  const parse = (text: string): number[] | null => (/^\d+\.\d+\.\d+$/.test(text) ? text.split('.').map(Number) : null);
  const have = parse(version);
  const operator = /^[\^~]/.test(range) ? range.charAt(0) : '';
  const want = parse(range.slice(operator.length));
  if (!want) return true;
  if (!have) return false;
  const [major, minor, patch] = have as [number, number, number];
  const [wMajor, wMinor, wPatch] = want as [number, number, number];
  const atLeast = major > wMajor || (major === wMajor && (minor > wMinor || (minor === wMinor && patch >= wPatch)));
  if (operator === '') return major === wMajor && minor === wMinor && patch === wPatch;
  if (operator === '~') return atLeast && major === wMajor && minor === wMinor;
  return atLeast && major === wMajor && (wMajor > 0 || minor === wMinor);
}

/** The locks, from the repository root. */
const LOCKS = ['package-lock.json', 'tools/registry/package-lock.json'];
const ROOT = new URL('../../', import.meta.url);

describe('package-lock.json files', () => {
  for (const relative of LOCKS) {
    it(`${relative} lists every platform's optional packages (npm ci works on Linux and macOS)`, () => {
      const lock = JSON.parse(readFileSync(fileURLToPath(new URL(relative, ROOT)), 'utf8')) as {
        packages: Record<string, LockEntry>;
      };
      expect(missingOptionalEntries(lock)).toEqual([]);
    });
  }

  for (const relative of LOCKS) {
    it(`npm ci accepts ${relative} as it is (--dry-run: nothing is installed or removed)`, async () => {
      const dir = path.dirname(fileURLToPath(new URL(relative, ROOT)));
      const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
      // Rejects (exit 1, "not in sync") when package.json and the lock disagree.
      await promisify(execFile)('npm', ['ci', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
        cwd: dir,
        env,
        maxBuffer: 32 * 1024 * 1024,
      });
    });
  }

  it('the check finds a missing platform package', () => {
    const lock = {
      packages: {
        '': {},
        'node_modules/next': { optionalDependencies: { '@next/swc-darwin-arm64': '16.4.6', '@next/swc-linux-x64-gnu': '16.4.6' } },
        'node_modules/@next/swc-linux-x64-gnu': { version: '16.4.6' },
      },
    };
    expect(missingOptionalEntries(lock)).toEqual(['node_modules/next -> @next/swc-darwin-arm64@16.4.6']);
  });

  it('the check finds a platform package found under its name at another version', () => {
    const lock = {
      packages: {
        'node_modules/sharp': { version: '0.34.5', optionalDependencies: { '@img/sharp-linux-x64': '0.34.5' } },
        'node_modules/@img/sharp-linux-x64': { version: '0.34.5' },
        'node_modules/next/node_modules/sharp': { version: '0.35.5', optionalDependencies: { '@img/sharp-linux-x64': '0.35.5' } },
      },
    };
    expect(missingOptionalEntries(lock)).toEqual(['node_modules/next/node_modules/sharp -> @img/sharp-linux-x64@0.35.5']);
    expect([
      satisfies('1.4.0', '^1.2.3'),
      satisfies('0.35.5', '^0.34.5'),
      satisfies('4.68.9', '~4.68.7'),
      satisfies('16.4.6', '16.4.6'),
    ]).toEqual([true, false, true, true]);
  });
});
