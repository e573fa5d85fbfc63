import { describe, expect, it } from 'vitest';
import { documentRuntimeConfig } from './document-runtime-config.js';

const doc = (attrs: string): string => `<!doctype html><html ${attrs}><head></head><body></body></html>`;
const ENTRY = doc(
  `data-composition-id="main" data-width="160" data-height="90" data-duration="2" data-composition-variables='[{"id":"title","type":"string","label":"Title","default":"a"}]'`,
);
const CHILD = doc('data-composition-id="card" data-width="40" data-height="40"');
const shared = { mode: 'render' as const, seed: 7, fps: 30, epochMs: 1_700_000_000_000 };

describe('documentRuntimeConfig (one rule for render, preview and the templates)', () => {
  it('gives the entry its metadata, declarations, the shared settings and the top-level variables', () => {
    expect(documentRuntimeConfig(ENTRY, { file: 'index.html', isEntry: true, shared, entryVariables: { title: 'b' } })).toEqual({
      ...shared,
      composition: { id: 'main', width: 160, height: 90, duration: 2 },
      declarations: [{ id: 'title', type: 'string', label: 'Title', default: 'a' }],
      variables: { title: 'b' },
    });
  });

  it('gives a child composition no top-level variables (it reads its host element instead)', () => {
    const config = documentRuntimeConfig(CHILD, { file: 'card.html', isEntry: false, shared, entryVariables: { title: 'b' } });
    expect(config).toMatchObject({ ...shared, composition: { id: 'card', width: 40, height: 40, duration: 0 } });
    expect(config).not.toHaveProperty('variables');
  });

  it('gives a plain page the clock-only runtime with the shared clock, a fragment nothing, and throws for a broken entry', () => {
    const plain = '<html><head></head><body><canvas></canvas></body></html>';
    expect(documentRuntimeConfig(plain, { file: 'widget.html', isEntry: false, shared })).toMatchObject({ ...shared, embedded: true });
    expect(documentRuntimeConfig('<p>hi</p>', { file: 'part.html', isEntry: false, shared })).toBeUndefined();
    expect(() => documentRuntimeConfig(plain, { file: 'index.html', isEntry: true, shared })).toThrow(/index\.html/);
  });
});
