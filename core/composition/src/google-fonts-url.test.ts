import { describe, expect, it } from 'vitest';
import { parseGoogleFontsUrl } from './google-fonts-url.js';

describe('parseGoogleFontsUrl', () => {
  it('reads css2 families, weights, italics, ranges and display', () => {
    expect(
      parseGoogleFontsUrl(
        'https://fonts.googleapis.com/css2?family=Inter:wght@400;700&family=Playfair+Display:ital,wght@0,400;1,900&family=Roboto&display=swap',
      ),
    ).toEqual({
      families: [
        {
          family: 'Inter',
          faces: [
            { style: 'normal', minWeight: 400, maxWeight: 400 },
            { style: 'normal', minWeight: 700, maxWeight: 700 },
          ],
        },
        {
          family: 'Playfair Display',
          faces: [
            { style: 'normal', minWeight: 400, maxWeight: 400 },
            { style: 'italic', minWeight: 900, maxWeight: 900 },
          ],
        },
        { family: 'Roboto', faces: [{ style: 'normal', minWeight: 400, maxWeight: 400 }] },
      ],
      display: 'swap',
    });
    expect(parseGoogleFontsUrl('//fonts.googleapis.com/css2?family=Inter:wght@100..900')?.families[0]?.faces).toEqual([
      { style: 'normal', minWeight: 100, maxWeight: 900 },
    ]);
    expect(parseGoogleFontsUrl('https://fonts.googleapis.com/css2?family=Roboto+Flex:opsz,wght@8..144,300')?.families[0]?.faces).toEqual([
      { style: 'normal', minWeight: 300, maxWeight: 300 },
    ]);
    expect(parseGoogleFontsUrl('https://fonts.googleapis.com/css2?family=Open%20Sans:ital@1')?.families[0]).toEqual({
      family: 'Open Sans',
      faces: [{ style: 'italic', minWeight: 400, maxWeight: 400 }],
    });
  });

  it('reads the older css API (| between families, 700i, bold, regular)', () => {
    expect(
      parseGoogleFontsUrl('https://fonts.googleapis.com/css?family=Roboto:400,700italic|Open+Sans:b,300i,regular&subset=latin')?.families,
    ).toEqual([
      {
        family: 'Roboto',
        faces: [
          { style: 'normal', minWeight: 400, maxWeight: 400 },
          { style: 'italic', minWeight: 700, maxWeight: 700 },
        ],
      },
      {
        family: 'Open Sans',
        faces: [
          { style: 'normal', minWeight: 700, maxWeight: 700 },
          { style: 'italic', minWeight: 300, maxWeight: 300 },
          { style: 'normal', minWeight: 400, maxWeight: 400 },
        ],
      },
    ]);
  });

  it('ignores every other URL', () => {
    expect(parseGoogleFontsUrl('https://fonts.gstatic.com/s/inter/v20/x.woff2')).toBeNull();
    expect(parseGoogleFontsUrl('https://fonts.googleapis.com.evil.test/css2?family=Inter')).toBeNull();
    expect(parseGoogleFontsUrl('https://fonts.googleapis.com/icon?family=Material+Icons')).toBeNull();
    expect(parseGoogleFontsUrl('style.css')).toBeNull();
  });
});
