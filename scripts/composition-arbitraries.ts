import fc from 'fast-check';

/**
 * fast-check generators of what users send: variable declarations and values, and composition
 * documents from a small grammar (roots with odd dimensions, clips with start expressions and
 * cycles, media, sub-composition hosts with values, colour grading). Shared by the property tests
 * of @seekframe/composition, the producer server and the render API.
 */
const TYPES = fc.constantFrom('string', 'number', 'color', 'boolean', 'enum', 'captions', 'image', '', 'STRING');
export const looseValue = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.integer({ min: -5, max: 500 }),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 2 }),
);
const declaration = fc.record(
  {
    id: fc.oneof(fc.constantFrom('title', 'size', 'mode', 'on', 'tint', '__proto__', 'a b', ''), fc.string({ maxLength: 8 })),
    type: TYPES,
    label: looseValue,
    default: looseValue,
    min: looseValue,
    max: looseValue,
    step: looseValue,
    maxLength: looseValue,
    options: fc.oneof(fc.array(fc.record({ value: looseValue, label: looseValue }, { requiredKeys: [] }), { maxLength: 4 }), looseValue),
    extra: looseValue,
  },
  { requiredKeys: [] },
);
export const variableDeclarations = fc.oneof(
  { weight: 5, arbitrary: fc.array(declaration, { maxLength: 6 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);
export const variableValues = fc.dictionary(
  fc.oneof(fc.constantFrom('title', 'size', 'mode', 'on', 'tint', '__proto__', 'x'), fc.string({ maxLength: 6 })),
  looseValue,
  {
    maxKeys: 6,
  },
);

/** A composition document from a small grammar: roots, clips with start expressions, hosts, variables. */
export const compositionDocument = fc
  .record({
    rootAttrs: fc.record(
      {
        'data-composition-id': fc.oneof(fc.constantFrom('main', ''), fc.string({ maxLength: 6 })),
        'data-width': fc.oneof(fc.integer({ min: -10, max: 10000 }).map(String), fc.string({ maxLength: 4 })),
        'data-height': fc.oneof(fc.integer({ min: -10, max: 10000 }).map(String), fc.string({ maxLength: 4 })),
        'data-duration': fc.oneof(fc.double({ min: -5, max: 1e6, noNaN: false }).map(String), fc.string({ maxLength: 4 })),
        'data-fps': fc.oneof(fc.constantFrom('30', '0', '30000/1001', '1/0', 'x', '241'), fc.string({ maxLength: 4 })),
        'data-root': fc.constantFrom('true', 'false'),
      },
      { requiredKeys: [] },
    ),
    variables: fc.oneof(
      variableDeclarations.map((d) => JSON.stringify(d)),
      fc.string({ maxLength: 30 }),
    ),
    clips: fc.array(
      fc.record(
        {
          id: fc.constantFrom('a', 'b', 'c', 'intro', ''),
          start: fc.oneof(fc.constantFrom('0', 'a', 'b + 0.5', 'c - 1', 'intro', 'a+', '-1', 'NaN', '1e400'), fc.string({ maxLength: 6 })),
          duration: fc.oneof(fc.constantFrom('1', '0', '-1', 'x'), fc.double().map(String)),
          track: fc.oneof(fc.constantFrom('0', '1', '-3', 'x'), fc.integer().map(String)),
          tag: fc.constantFrom('div', 'video', 'audio', 'img', 'iframe', 'template', 'canvas'),
          src: fc.constantFrom('', 'a.mp4', '../../etc/passwd', 'file:///etc/passwd', 'https://example.com/v.mp4', 'data:,x', 'child.html'),
          host: fc.boolean(),
          values: fc.oneof(
            variableValues.map((o) => JSON.stringify(o)),
            fc.string({ maxLength: 10 }),
          ),
          grading: fc.oneof(fc.constant(''), fc.json({ maxDepth: 2 }), fc.constantFrom('{"exposure":"$tint"}', '{"lut":"../x.cube"}')),
        },
        { requiredKeys: ['tag'] },
      ),
      { maxLength: 6 },
    ),
    noise: fc.string({ maxLength: 40 }),
  })
  .map(({ rootAttrs, variables, clips, noise }) => {
    const attr = (name: string, value: string | undefined) => (value === undefined ? '' : ` ${name}="${value.replace(/"/g, '&quot;')}"`);
    const root = Object.entries(rootAttrs)
      .map(([name, value]) => attr(name, value))
      .join('');
    const body = clips
      .map((clip) => {
        const host = clip.host
          ? `${attr('data-composition-src', clip.src || 'child.html')}${attr('data-variable-values', clip.values)}`
          : attr('src', clip.src);
        return `<${clip.tag}${attr('id', clip.id)}${attr('data-start', clip.start)}${attr('data-duration', clip.duration)}${attr('data-track-index', clip.track)}${host}${clip.grading ? attr('data-color-grading', clip.grading) : ''}></${clip.tag}>`;
      })
      .join('\n');
    return `<!doctype html><html${root}${attr('data-composition-variables', variables)}><head><script>window.__timelines={}</script></head><body>${body}${noise}</body></html>`;
  });
