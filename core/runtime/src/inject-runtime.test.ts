import { describe, expect, it } from 'vitest';
import { injectRuntime, isRuntimeInjected } from './inject-runtime.js';
import type { InjectedConfig } from './injected-config.js';

const config: InjectedConfig = {
  mode: 'render',
  composition: { id: 'main', width: 160, height: 90, duration: 2 },
  variables: { title: '</script><script>alert(1)</script>' },
  seed: 7,
};
const RUNTIME = 'console.log("runtime")';
const SCRIPTS_START = '<script>window.__seekframeConfig=';

function configOf(html: string): unknown {
  const match = /window\.__seekframeConfig=(.*?);<\/script>/.exec(html);
  if (!match?.[1]) throw new Error('no config script');
  return JSON.parse(match[1]);
}

describe('injectRuntime', () => {
  it('puts config then runtime first inside an existing <head>', () => {
    const html = '<!doctype html><html lang="en"><head><meta charset="utf-8"><script src="a.js"></script></head><body></body></html>';
    const out = injectRuntime(html, config, RUNTIME);
    expect(out.startsWith(`<!doctype html><html lang="en"><head>${SCRIPTS_START}`)).toBe(true);
    expect(out.indexOf(RUNTIME)).toBeLessThan(out.indexOf('<meta charset'));
    expect(out.indexOf(SCRIPTS_START)).toBeLessThan(out.indexOf(RUNTIME));
    expect(out.endsWith('<meta charset="utf-8"><script src="a.js"></script></head><body></body></html>')).toBe(true);
  });

  it('escapes </script in the JSON so it cannot close the script early', () => {
    const out = injectRuntime('<html><head></head></html>', config, RUNTIME);
    expect(out.match(/<\/script>/gi)).toHaveLength(2);
    expect(configOf(out)).toEqual(config);
  });

  it('escapes </script inside the runtime source', () => {
    const out = injectRuntime('<head></head>', config, 'var s="</script>";');
    expect(out).toContain('var s="<\\/script>";');
    expect(out.match(/<\/script>/gi)).toHaveLength(2);
  });

  it('handles uppercase tags and attributes on <head> and <html>', () => {
    const out = injectRuntime(
      '<!DOCTYPE HTML>\n<HTML data-composition-id="x"><HEAD profile="p"><TITLE>t</TITLE></HEAD></HTML>',
      config,
      RUNTIME,
    );
    expect(out.startsWith(`<!DOCTYPE HTML>\n<HTML data-composition-id="x"><HEAD profile="p">${SCRIPTS_START}`)).toBe(true);
  });

  it('creates <head> right after <html> when there is none', () => {
    const out = injectRuntime('<!doctype html><html data-width="10"><body>hi</body></html>', config, RUNTIME);
    expect(out.startsWith(`<!doctype html><html data-width="10"><head>${SCRIPTS_START}`)).toBe(true);
    expect(out.endsWith('</script></head><body>hi</body></html>')).toBe(true);
  });

  it('creates <head> after the doctype when there is no <html> either', () => {
    const out = injectRuntime('<!-- c --><!DOCTYPE html><div>x</div>', config, RUNTIME);
    expect(out.startsWith(`<!-- c --><!DOCTYPE html><head>${SCRIPTS_START}`)).toBe(true);
    expect(injectRuntime('<div>x</div>', config, RUNTIME).startsWith(`<head>${SCRIPTS_START}`)).toBe(true);
  });

  it('ignores <head> inside comments and does not confuse <header> for <head>', () => {
    const html = '<!doctype html><!-- <head> --><html><body><header>h</header></body></html>';
    const out = injectRuntime(html, config, RUNTIME);
    expect(out.startsWith(`<!doctype html><!-- <head> --><html><head>${SCRIPTS_START}`)).toBe(true);
    expect(out).toContain('<header>h</header>');
  });
});

describe('isRuntimeInjected', () => {
  it('recognises a page injectRuntime produced and nothing else', () => {
    const config: InjectedConfig = { mode: 'preview', composition: { id: 'a', width: 16, height: 9, duration: 1 } };
    const plain = '<!doctype html><html><head><title>x</title></head><body></body></html>';
    expect(isRuntimeInjected(plain)).toBe(false);
    expect(isRuntimeInjected(injectRuntime(plain, config, 'void 0'))).toBe(true);
  });
});
