import { describe, expect, it } from 'vitest';
import { listSourceElements } from './source-elements.js';

describe('listSourceElements', () => {
  it('lists clip-like elements with their attributes, start line and the end of their start tag', () => {
    const html = `<!doctype html>
<html data-composition-id="main" data-width="100" data-height="50" data-duration="2">
<body>
  <div id="intro" data-start="0"
       data-duration="1" data-track-index="0">Intro</div>
  <p>not a clip</p>
  <video src="a.mp4" data-start="intro + 0.5"></video>
  <div class="box clip"></div>
  <div data-composition-id="card" id="ignored" data-composition-src="card.html" data-variable-values='{"a":1}'></div>
  <template><section data-start="1"></section></template>
</body></html>`;
    const list = listSourceElements(html);
    expect(list.map((e) => [e.tag, e.id, e.location.line, e.startTagEnd.line])).toEqual([
      ['div', 'intro', 4, 5],
      ['video', undefined, 7, 7],
      ['div', undefined, 8, 8],
      ['div', 'card', 9, 9],
      ['section', undefined, 10, 10],
    ]);
    expect(list[0]?.attributes).toEqual([
      ['id', 'intro'],
      ['data-start', '0'],
      ['data-duration', '1'],
      ['data-track-index', '0'],
    ]);
    expect(list[3]?.attributes.find(([name]) => name === 'data-variable-values')?.[1]).toBe('{"a":1}');
    expect(list[0]?.location.column).toBe(3);
  });
});
