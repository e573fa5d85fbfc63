import { describe, expect, it } from 'vitest';
import { expandOutputTemplate, sanitizeFileSegment, templatePlaceholders } from './batch-output-template.js';

describe('batch output templates', () => {
  it('lists placeholders once each', () => {
    expect(templatePlaceholders('renders/{name}/{index}-{name}.mp4')).toEqual(['name', 'index']);
  });

  it('sanitises values into one safe file-name segment', () => {
    expect(sanitizeFileSegment('Hello World/2')).toBe('Hello-World-2');
    expect(sanitizeFileSegment('../../etc/passwd')).toBe('etc-passwd');
    expect(sanitizeFileSegment('.hidden')).toBe('hidden');
    expect(sanitizeFileSegment('Größe ü')).toBe('Größe-ü');
    expect(sanitizeFileSegment('///')).toBe('_');
    expect(sanitizeFileSegment('x'.repeat(200))).toHaveLength(80);
  });

  it('fills {index} with the row position even when the row has an index key', () => {
    expect(expandOutputTemplate('r/{index}-{title}-{on}.mp4', { title: 'a b', on: true, index: 'x' }, 4)).toEqual({
      output: 'r/4-a-b-true.mp4',
      missing: [],
    });
    expect(expandOutputTemplate('r/{ title }-{lang}.mp4', { title: 'T' }, 0)).toEqual({ output: 'r/T-.mp4', missing: ['lang'] });
  });
});
