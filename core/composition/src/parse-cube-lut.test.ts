import { expect, test } from 'vitest';
import { SeekframeError } from './errors.js';
import { parseCubeLut } from './parse-cube-lut.js';

const identity2 = [
  '# comment',
  'TITLE "id"',
  'LUT_3D_SIZE 2',
  'DOMAIN_MIN 0 0 0',
  'DOMAIN_MAX 1 1 1',
  '0 0 0',
  '1 0 0',
  '0 1 0',
  '1 1 0',
  '0 0 1',
  '1 0 1',
  '0 1 1',
  '1 1 1',
];

test('parses a 3D .cube with red changing fastest', () => {
  const lut = parseCubeLut(identity2.join('\r\n'));
  expect(lut.size).toBe(2);
  expect([...lut.table.slice(3, 6)]).toEqual([1, 0, 0]);
  expect([...lut.table.slice(12, 15)]).toEqual([0, 0, 1]);
});

test.each([
  [['LUT_1D_SIZE 4'], 'only 3D LUTs'],
  [['LUT_3D_SIZE 2', '0 0 0'], 'needs 8'],
  [['0 0 0'], 'before LUT_3D_SIZE'],
  [['LUT_3D_SIZE 1'], 'from 2 to 128'],
  [['LUT_3D_SIZE 2', '0 0 x'], 'three numbers'],
  [['LUT_3D_SIZE 2', 'FOO 1'], 'unknown keyword'],
])('rejects %j with invalid-lut (%s)', (lines, text) => {
  let error: unknown;
  try {
    parseCubeLut(lines.join('\n'), 'look.cube');
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(SeekframeError);
  expect((error as SeekframeError).code).toBe('invalid-lut');
  expect((error as SeekframeError).message).toContain(text);
  expect((error as SeekframeError).message).toContain('look.cube line');
});
