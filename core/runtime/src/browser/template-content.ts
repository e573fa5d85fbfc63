/**
 * HyperFrames' sub-composition files keep their markup, styles and scripts inside a `<template>`
 * (its runtime clones only the template's content into the host). Template content is inert: it
 * is not rendered and its scripts never run. Here the document itself is the instance (a
 * same-origin iframe), so the content is instantiated in place, in the child's own window, and its
 * scripts are run in document order, external ones awaited before the next, as a parser would.
 */

const CONTENT_ELEMENTS = 'template, script, style, link, meta, title, noscript';

/**
 * The template to instantiate, if the document is in that format: no composition element lives
 * outside templates, and either a template holds one, or the body holds nothing but templates
 * (and scripts/styles), in which case the first template is the content.
 */
export function findContentTemplate(doc: Document): HTMLTemplateElement | undefined {
  if (doc.querySelector('[data-composition-id]:not([data-composition-src]):not(html)')) return undefined;
  const templates = [...doc.querySelectorAll('template')];
  const withRoot = templates.find((t) => t.content.querySelector('[data-composition-id]:not([data-composition-src])'));
  if (withRoot) return withRoot;
  const body = doc.body;
  if (!body || templates.length === 0) return undefined;
  const onlyTemplates = [...body.children].every((el) => el.matches(CONTENT_ELEMENTS)) && (body.textContent ?? '').trim() === '';
  return onlyTemplates ? templates.find((t) => t.parentElement === body) : undefined;
}

export interface InstantiateOptions {
  /** Scripts to load first (libraries the host's `<head>` loads, e.g. GSAP): HyperFrames children share the host's window. */
  inheritScripts: readonly string[];
  onScriptError(message: string): void;
}

/**
 * Replaces the template with its content and runs the content's scripts in order. Resolves once
 * the last script ran (external scripts: loaded and evaluated, or failed).
 */
export async function instantiateTemplate(template: HTMLTemplateElement, options: InstantiateOptions): Promise<void> {
  const doc = template.ownerDocument;
  const fragment = doc.importNode(template.content, true);
  // Inserted scripts would run at once and external ones out of order: park them behind markers.
  const parked: { marker: Comment; original: HTMLScriptElement }[] = [];
  for (const original of fragment.querySelectorAll('script')) {
    const marker = doc.createComment('seekframe: template script');
    original.replaceWith(marker);
    parked.push({ marker, original });
  }
  // A file that is nothing but `<template>…</template>` has it parsed into <head>, where nothing renders.
  if (template.closest('body')) template.replaceWith(fragment);
  else {
    template.remove();
    (doc.body ?? doc.documentElement.appendChild(doc.createElement('body'))).appendChild(fragment);
  }
  // The content sits in the host's box in HyperFrames, not 8 px into a page.
  if (doc.body) doc.body.style.margin = '0';

  const own = new Set(
    [...doc.querySelectorAll<HTMLScriptElement>('script[src]'), ...parked.map((p) => p.original)]
      .map((s) => (s.hasAttribute('src') ? new URL(s.getAttribute('src') ?? '', doc.baseURI).href : ''))
      .filter(Boolean),
  );
  for (const src of options.inheritScripts) {
    if (own.has(src)) continue;
    const script = doc.createElement('script');
    script.src = src;
    script.setAttribute('data-seekframe-inherited', '');
    await runScript(script, (el) => (doc.head ?? doc.documentElement).appendChild(el), options);
  }
  for (const { marker, original } of parked) {
    const script = doc.createElement('script');
    for (const attr of original.attributes) script.setAttribute(attr.name, attr.value);
    script.text = original.text;
    await runScript(script, (el) => marker.replaceWith(el), options);
  }
}

function runScript(script: HTMLScriptElement, insert: (el: HTMLScriptElement) => void, options: InstantiateOptions): Promise<void> {
  const type = (script.getAttribute('type') ?? '').trim().toLowerCase();
  const classic = type === '' || type === 'text/javascript' || type === 'application/javascript';
  const waits = script.hasAttribute('src') && (classic || type === 'module');
  if (!waits) {
    // Inline classic scripts run synchronously on insertion; other types (JSON data, templates) never run.
    insert(script);
    return Promise.resolve();
  }
  script.async = false;
  return new Promise((resolve) => {
    script.addEventListener('load', () => resolve(), { once: true });
    script.addEventListener(
      'error',
      () => {
        options.onScriptError(
          `script ${script.src} in the <template> of ${script.ownerDocument.location.href} could not be loaded; check the path`,
        );
        resolve();
      },
      { once: true },
    );
    insert(script);
  });
}
