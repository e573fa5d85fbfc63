import { describe, expect, test } from 'vitest';
import { inspectComposition } from './inspect-composition.js';

const ROOT = 'data-composition-id="main" data-width="640" data-height="360" data-duration="4"';
const rules = (html: string) => inspectComposition(html, { file: 'x.html' }).findings.map((f) => `${f.severity} ${f.rule}`);

describe('inspectComposition', () => {
  test('reads root attributes from <html>', () => {
    const { metadata, findings, rootLocation } = inspectComposition(`<!doctype html>\n<html ${ROOT} data-fps="25"><body></body></html>`);
    expect(findings).toEqual([]);
    expect(metadata).toMatchObject({
      id: 'main',
      width: 640,
      height: 360,
      duration: 4,
      fps: 25,
      variables: [],
      clips: [],
      subCompositions: [],
    });
    expect(rootLocation).toEqual({ line: 2, column: 1 });
  });

  test('without a root on <html>, the first data-composition-id element is the root (also inside <template>)', () => {
    const html = `<html><body><template><div ${ROOT.replace('main', 'card')}><p data-start="1" data-duration="1">x</p></div></template></body></html>`;
    const { metadata, findings } = inspectComposition(html);
    expect(findings).toEqual([]);
    expect(metadata.id).toBe('card');
    expect(metadata.clips).toEqual([expect.objectContaining({ tag: 'p', start: '1', duration: 1 })]);
  });

  test('takes variables from <html> even when the root is another element', () => {
    const vars = `[{"id":"t","type":"string","label":"T","default":"x"}]`;
    const { metadata } = inspectComposition(`<html data-composition-variables='${vars}'><body><div ${ROOT}></div></body></html>`);
    expect(metadata.variables.map((v) => v.id)).toEqual(['t']);
  });

  test('missing and non-numeric root numbers are errors with their own rule ids', () => {
    expect(rules('<html data-composition-id="m"></html>')).toEqual([
      'error root/missing-width',
      'error root/missing-height',
      'error root/missing-duration',
    ]);
    expect(rules('<html data-composition-id="m" data-width="wide" data-height="0" data-duration="-1" data-fps="fast"></html>')).toEqual([
      'error root/invalid-width',
      'error root/invalid-height',
      'error root/invalid-duration',
      'error root/invalid-fps',
    ]);
    expect(rules('<html data-composition-id="m" data-width="10.5" data-height="10" data-duration="1"></html>')).toEqual([
      'error root/invalid-width',
    ]);
  });

  test('a missing id is a warning and defaults to "main"; no root at all is an error', () => {
    const inspection = inspectComposition('<html data-width="10" data-height="10" data-duration="1"></html>');
    expect(inspection.metadata.id).toBe('main');
    expect(rules('<html data-width="10" data-height="10" data-duration="1"></html>')).toEqual(['warning root/missing-id']);
    expect(rules('<p>hello</p>')).toEqual(['error root/missing-root']);
  });

  test('clips: data-start elements and all media, with line:col', () => {
    const html = `<html ${ROOT}><body>
<div id="title" class="clip" data-start="intro + 1" data-duration="2" data-track-index="1">Hi</div>
<video id="v" src="a.mp4" data-start="0.5" data-media-start="2" data-has-audio></video>
  <video><source src="b.webm"></video>
<audio src="music.mp3" data-duration="3"></audio>
<span>not a clip</span>
</body></html>`;
    const { metadata, findings } = inspectComposition(html);
    expect(findings).toEqual([]);
    expect(metadata.clips).toEqual([
      { id: 'title', tag: 'div', start: 'intro + 1', duration: 2, trackIndex: 1, location: { line: 2, column: 1 } },
      { id: 'v', tag: 'video', start: '0.5', mediaStart: 2, hasAudio: true, src: 'a.mp4', location: { line: 3, column: 1 } },
      { tag: 'video', start: '0', hasAudio: false, src: 'b.webm', location: { line: 4, column: 3 } },
      { tag: 'audio', start: '0', duration: 3, hasAudio: true, src: 'music.mp3', location: { line: 5, column: 1 } },
    ]);
  });

  test('data-has-audio="false" means no audio', () => {
    const { metadata } = inspectComposition(`<html ${ROOT}><body><video src="a.mp4" data-has-audio="false"></video></body></html>`);
    expect(metadata.clips[0]?.hasAudio).toBe(false);
  });

  test('bad clip numbers are findings and are left out of the clip', () => {
    const html = `<html ${ROOT}><body><div data-start="0" data-duration="long" data-track-index="x"></div><video src="a.mp4" data-media-start="?"></video></body></html>`;
    expect(rules(html)).toEqual(['error timing/invalid-duration', 'warning timing/invalid-track-index', 'error media/invalid-media-start']);
    const { metadata } = inspectComposition(html);
    expect(metadata.clips[0]).not.toHaveProperty('duration');
    expect(metadata.clips[1]).not.toHaveProperty('mediaStart');
  });

  test('sub-composition hosts are listed apart from clips, with their values parsed', () => {
    const html = `<html ${ROOT}><body>
<div data-composition-id="card1" data-composition-src="card.html" data-start="1" data-duration="2" data-variable-values='{"title":"One"}'></div>
<div data-composition-src="parts/card.html" data-variable-values='{"title":'></div>
</body></html>`;
    const { metadata, findings } = inspectComposition(html, { file: 'x.html' });
    expect(metadata.clips).toEqual([]);
    const line2 = html.split('\n')[1] as string;
    expect(metadata.subCompositions[0]).toEqual({
      id: 'card1',
      src: 'card.html',
      start: '1',
      duration: 2,
      variableValues: { title: 'One' },
      variableValueLocations: { title: { line: 2, column: line2.indexOf('"title"') + 1 } },
      location: { line: 2, column: 1 },
    });
    expect(metadata.subCompositions[1]).toMatchObject({ id: 'card', start: '0', variableValues: {} });
    expect(metadata.subCompositions[1]?.variableValuesError).toMatch(/not valid JSON/);
    // The malformed value is reported where JSON.parse gave up: the end of the truncated value.
    const line3 = html.split('\n')[2] as string;
    const endOfValue = line3.indexOf(`{"title":`) + `{"title":`.length + 1;
    expect(findings.map((f) => `${f.rule} ${f.line}:${f.column}`)).toEqual([
      'subcomposition/missing-id 3:1',
      `subcomposition/malformed-values 3:${endOfValue}`,
    ]);
  });

  test('data-variable-values that is JSON but not an object is malformed', () => {
    const html = `<html ${ROOT}><body><div data-composition-id="c" data-composition-src="c.html" data-variable-values='[1]'></div></body></html>`;
    expect(inspectComposition(html).metadata.subCompositions[0]?.variableValuesError).toBe('it is not a JSON object');
  });

  describe('HyperFrames layouts', () => {
    test('<html> carries the id and variables, a stage element with the same id the size and length', () => {
      const vars = JSON.stringify([{ id: 'title', type: 'string', label: 'Title', default: 'Hi' }]);
      const html = `<html data-composition-id="promo" data-composition-variables='${vars}'><body>
<div id="stage" data-composition-id="promo" data-width="320" data-height="180" data-duration="3"><p data-start="0" data-duration="1">x</p></div></body></html>`;
      const { metadata, findings, rootLocation } = inspectComposition(html);
      expect(findings).toEqual([]);
      expect(metadata).toMatchObject({ id: 'promo', width: 320, height: 180, duration: 3, variables: [{ id: 'title' }] });
      expect(rootLocation.line).toBe(2);
      expect(metadata.clips).toHaveLength(1);
    });

    test('dimensions on a stage element and the length on <html> still give one root', () => {
      const html = `<html data-composition-id="promo" data-duration="2"><body><div data-composition-id="promo" data-width="160" data-height="90"></div></body></html>`;
      expect(rules(html)).toEqual([]);
      expect(inspectComposition(html).metadata).toMatchObject({ width: 160, height: 90, duration: 2 });
    });

    test('a child file (template-wrapped) may leave its length to the host; as an entry it may not', () => {
      const html = `<html><body><template id="card-template"><div id="root" data-composition-id="card" data-width="160" data-height="90"></div></template></body></html>`;
      expect(inspectComposition(html, { role: 'child' }).findings).toEqual([]);
      expect(inspectComposition(html, { role: 'child' }).metadata).toMatchObject({ id: 'card', width: 160, height: 90, duration: 0 });
      expect(rules(html)).toEqual(['error root/missing-duration']);
    });

    test('a background composition element with no length before the real root: the root is the one with data-duration', () => {
      const html = `<html><body>
<canvas id="bg" data-composition-id="bg" data-width="640" data-height="360"></canvas>
<div id="main" data-composition-id="main" data-width="640" data-height="360" data-duration="2"><p data-start="0" data-duration="1">x</p></div></body></html>`;
      const { metadata, findings, rootLocation } = inspectComposition(html);
      expect(findings).toEqual([]);
      expect(metadata).toMatchObject({ id: 'main', width: 640, height: 360, duration: 2 });
      expect(rootLocation.line).toBe(3);
      expect(metadata.clips).toHaveLength(1);
    });

    test('an inline composition with a length inside a child root does not become the root', () => {
      const html = `<html><body><div data-composition-id="card" data-width="160" data-height="90">
<div data-composition-id="inner" data-width="80" data-height="40" data-start="0" data-duration="1"></div></div></body></html>`;
      expect(inspectComposition(html, { role: 'child' }).metadata).toMatchObject({ id: 'card', width: 160, height: 90 });
    });

    test('data-root="true" marks the root explicitly, as in HyperFrames', () => {
      const html = `<html><body><div data-composition-id="a" data-width="10" data-height="10" data-duration="1"></div>
<div data-composition-id="b" data-root="true" data-width="20" data-height="20" data-duration="2"></div></body></html>`;
      expect(inspectComposition(html).metadata).toMatchObject({ id: 'b', width: 20, duration: 2 });
    });
  });
});
