import { describe, expect, it } from 'vitest';
import { extractCompositionMetadata } from '@seekframe/composition';
import { checkCustomHtmlSources } from './check-custom-html.js';

const doc = (src: string): string =>
  `<html data-composition-id="c" data-width="32" data-height="32" data-duration="1"><body><div data-composition-id="s" data-composition-src="${src}" data-start="0" data-duration="1"></div></body></html>`;
const check = (src: string): void => checkCustomHtmlSources(extractCompositionMetadata(doc(src), { file: 'html' }));

describe('checkCustomHtmlSources', () => {
  it('passes a posted document with no sub-composition file', () => {
    expect(() =>
      checkCustomHtmlSources(
        extractCompositionMetadata(
          '<html data-composition-id="c" data-width="8" data-height="8" data-duration="1"><body><div data-composition-id="inline" data-start="0" data-duration="1">x</div></body></html>',
          { file: 'html' },
        ),
      ),
    ).not.toThrow();
  });

  it.each([
    ['../../etc/passwd', "leaves the document's folder"],
    ['../x.html', "leaves the document's folder"],
    ['/etc/passwd', 'names a file the posted document does not bring'],
    ['parts/intro.html', 'names a file the posted document does not bring'],
    ['file:///etc/passwd', 'is a file: URL'],
    ['FILE:///etc/passwd', 'is a file: URL'],
    ['http://127.0.0.1:8080/x.html', "names an address on the server's own machine or network"],
    ['http://localhost/x.html', "names an address on the server's own machine or network"],
    ['http://[::1]:9/x.html', "names an address on the server's own machine or network"],
    ['http://169.254.169.254/latest/meta-data', "names an address on the server's own machine or network"],
    ['http://10.1.2.3/x.html', "names an address on the server's own machine or network"],
    ['//192.168.1.1/x.html', "names an address on the server's own machine or network"],
    ['https://example.com/x.html', 'is on another origin'],
    ['data:text/html,hi', 'is a data: URL'],
  ])('refuses data-composition-src="%s" at once: 400 invalid-composition, "%s"', (src, reason) => {
    let error: unknown;
    try {
      check(src);
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({
      code: 'invalid-composition',
      stage: 'load',
      details: { problems: [{ id: 's', src, reason: expect.stringContaining(reason) }] },
    });
    expect((error as Error).message).toContain(`data-composition-src="${src}" on "s" ${reason}`);
    expect((error as Error).message).not.toMatch(/\/tmp\/|\/srv\/|\/home\//);
  });
});
