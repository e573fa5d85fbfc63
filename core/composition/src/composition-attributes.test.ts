import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ATTR, COMPOSITION_ATTRIBUTES, INTERNAL_ATTRIBUTE_PREFIX } from './composition-attributes.js';

const CORE = fileURLToPath(new URL('../../', import.meta.url));

/** Every non-test TypeScript file under core/<package>/src: the code that reads a composition. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** `data-*` names the code uses as attribute names: quoted (`'data-start'`) or in a selector (`[data-start]`). */
function attributeNamesIn(text: string): string[] {
  return [...text.matchAll(/['"`[](data-[a-z][a-z0-9-]*)(?=['"`\]=~^$*|])/g)].map((m) => m[1]!);
}

describe('composition attribute registry', () => {
  const documented = new Set<string>(COMPOSITION_ATTRIBUTES.map((a) => a.name));

  it('documents every attribute in ATTR, once', () => {
    expect(Object.values(ATTR).filter((name) => !documented.has(name))).toEqual([]);
    expect(new Set(COMPOSITION_ATTRIBUTES.map((a) => a.name)).size).toBe(COMPOSITION_ATTRIBUTES.length);
  });

  it('knows every data-* attribute the parser, linter, runtime, player, engine and producer read', () => {
    const packages = readdirSync(CORE, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => path.join(CORE, d.name, 'src'));
    const unknown = new Map<string, string>();
    const used = new Set<string>();
    const files = packages.flatMap((dir) => {
      try {
        return sourceFiles(dir);
      } catch {
        return [];
      }
    });
    // The preview studio's own page (core/cli/src/preview) marks up its timeline, panels and
    // buttons with data-* attributes of its own; they are UI state, never read from a composition.
    const studioUi = path.join(CORE, 'cli', 'src', 'preview') + path.sep;
    for (const file of files.filter((f) => !f.endsWith('composition-attributes.ts') && !f.startsWith(studioUi))) {
      const text = readFileSync(file, 'utf8');
      for (const [, key] of text.matchAll(/\bATTR\.([a-zA-Z]+)/g)) used.add(ATTR[key as keyof typeof ATTR]);
      for (const name of attributeNamesIn(text)) {
        if (name.startsWith(INTERNAL_ATTRIBUTE_PREFIX)) continue;
        used.add(name);
        if (!documented.has(name)) unknown.set(name, path.relative(CORE, file));
      }
    }
    expect(Object.fromEntries(unknown), 'add these to COMPOSITION_ATTRIBUTES (or name them data-seekframe-* when internal)').toEqual({});
    // And the other way: every attribute the registry documents is read somewhere.
    expect(
      Object.values(ATTR).filter((name) => !used.has(name)),
      'documented but read nowhere',
    ).toEqual([]);
  });

  it('finds attribute names written as quoted strings and as selectors, not in prose', () => {
    expect(attributeNamesIn(`getAttr(e, 'data-start'); q('[data-composition-src]'); q("[data-x='1']"); // data-prose here`)).toEqual([
      'data-start',
      'data-composition-src',
      'data-x',
    ]);
  });
});
