import { describe, expect, it } from 'vitest';
import { rewriteRemoteReferences } from './rewrite-remote-references.js';

describe('rewriteRemoteReferences', () => {
  it('points remote scripts, styles, images and media at the remote route and keeps the rest byte for byte', () => {
    const html = [
      '<!doctype html><html data-width="16"><head>',
      '<script src="https://cdn.jsdelivr.net/npm/gsap@3.12.5/dist/gsap.min.js"></script>',
      "<link rel=stylesheet href='http://example.test/a.css?x=1&amp;y=2'>",
      '</head><body><img  SRC=https://example.test/i.png alt="a">',
      '<img src="local.png"><a href="https://example.test/page">link</a>',
      '<video poster="https://example.test/p.jpg"><source src="clip.mp4"></video>',
      '</body></html>',
    ].join('\n');
    const out = rewriteRemoteReferences(html);
    expect(out).toContain(
      `<script src="/__seekframe/remote?url=${encodeURIComponent('https://cdn.jsdelivr.net/npm/gsap@3.12.5/dist/gsap.min.js')}"></script>`,
    );
    expect(out).toContain(
      `<link rel=stylesheet href="/__seekframe/remote?url=${encodeURIComponent('http://example.test/a.css?x=1&y=2')}">`,
    );
    expect(out).toContain(`<img  SRC="/__seekframe/remote?url=${encodeURIComponent('https://example.test/i.png')}" alt="a">`);
    expect(out).toContain('<img src="local.png"><a href="https://example.test/page">link</a>');
    expect(out).toContain(`poster="/__seekframe/remote?url=${encodeURIComponent('https://example.test/p.jpg')}"`);
    expect(out).toContain('<source src="clip.mp4">');
    expect(out.startsWith('<!doctype html><html data-width="16"><head>\n')).toBe(true);
  });

  it('returns documents without remote references unchanged', () => {
    const html = '<html><head><script src="a.js"></script></head><body><img src="data:image/png;base64,AA=="></body></html>';
    expect(rewriteRemoteReferences(html)).toBe(html);
  });
});
