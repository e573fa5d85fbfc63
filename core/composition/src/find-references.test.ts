import { describe, expect, it } from 'vitest';
import { findReferences } from './find-references.js';

describe('findReferences', () => {
  const html = `<!doctype html><html><body>
<img id="logo" src="img/logo.png">
<video src="./img/logo.png?v=2"></video>
<div data-composition-src="../scenes/intro.html"></div>
<img src="https://example.com/img/logo.png">
</body></html>`;

  it('finds the elements naming a project file, relative to the document, with the line of the attribute', () => {
    expect(findReferences(html, 'index.html', 'img/logo.png')).toEqual([
      { selector: '#logo', line: 2, column: 16 },
      { selector: 'video[src="./img/logo.png?v=2"]', line: 3, column: 8 },
    ]);
  });

  it('resolves from a document in a sub-folder and ignores remote URLs', () => {
    expect(findReferences(html, 'parts/card.html', 'scenes/intro.html')).toEqual([
      { selector: 'div[data-composition-src="../scenes/intro.html"]', line: 4, column: 6 },
    ]);
    expect(findReferences(html, 'index.html', 'nothing.png')).toEqual([]);
  });
});
