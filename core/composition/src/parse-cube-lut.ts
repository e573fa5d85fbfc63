import { SeekframeError } from './errors.js';

/** A parsed 3D LUT: `table[(b*size*size + g*size + r)*3 + c]`, red changing fastest (as in the file). */
export interface CubeLut {
  size: number;
  domainMin: [number, number, number];
  domainMax: [number, number, number];
  table: Float32Array;
}

/** 128³ entries are 25 MB of floats; the usual sizes are 17, 33 and 65. */
export const MAX_LUT_SIZE = 128;

function triple(parts: string[], line: number, file: string): [number, number, number] {
  const values = parts.map(Number);
  if (values.length !== 3 || values.some((v) => !Number.isFinite(v))) {
    throw lutError(file, line, `expected three numbers, got "${parts.join(' ')}"`);
  }
  return values as [number, number, number];
}

function lutError(file: string, line: number, what: string): SeekframeError {
  return new SeekframeError(
    'invalid-lut',
    `${file} line ${line}: ${what}; a .cube 3D LUT has LUT_3D_SIZE N followed by N³ lines of "r g b"`,
    {
      stage: 'load',
      details: { file, line },
    },
  );
}

/**
 * Reads the Adobe/Resolve `.cube` text format (3D only): `TITLE`, `LUT_3D_SIZE`, `DOMAIN_MIN`,
 * `DOMAIN_MAX`, `#` comments, then the table. Throws SeekframeError `invalid-lut` naming the line.
 */
export function parseCubeLut(text: string, file = 'LUT'): CubeLut {
  let size: number | undefined;
  let domainMin: [number, number, number] = [0, 0, 0];
  let domainMax: [number, number, number] = [1, 1, 1];
  let table: Float32Array | undefined;
  let count = 0;
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).trim();
    if (line === '' || line.startsWith('#')) continue;
    const parts = line.split(/\s+/);
    const keyword = parts[0] as string;
    if (/^[A-Za-z_]/.test(keyword)) {
      if (table && count > 0) throw lutError(file, i + 1, `"${keyword}" after the table started`);
      if (keyword === 'TITLE') continue;
      if (keyword === 'LUT_1D_SIZE' || keyword === 'LUT_1D_INPUT_RANGE')
        throw lutError(file, i + 1, 'only 3D LUTs are supported, this is a 1D LUT');
      if (keyword === 'LUT_3D_INPUT_RANGE') {
        const [lo, hi] = parts.slice(1).map(Number);
        if (lo === undefined || hi === undefined || !Number.isFinite(lo) || !Number.isFinite(hi))
          throw lutError(file, i + 1, 'LUT_3D_INPUT_RANGE needs two numbers');
        domainMin = [lo, lo, lo];
        domainMax = [hi, hi, hi];
        continue;
      }
      if (keyword === 'DOMAIN_MIN') domainMin = triple(parts.slice(1), i + 1, file);
      else if (keyword === 'DOMAIN_MAX') domainMax = triple(parts.slice(1), i + 1, file);
      else if (keyword === 'LUT_3D_SIZE') {
        const n = Number(parts[1]);
        if (!Number.isInteger(n) || n < 2 || n > MAX_LUT_SIZE)
          throw lutError(file, i + 1, `LUT_3D_SIZE must be a whole number from 2 to ${MAX_LUT_SIZE}, got "${parts[1] ?? ''}"`);
        size = n;
        table = new Float32Array(n * n * n * 3);
      } else throw lutError(file, i + 1, `unknown keyword "${keyword}"`);
      continue;
    }
    if (!table || size === undefined) throw lutError(file, i + 1, 'table data before LUT_3D_SIZE');
    if (count >= size * size * size) throw lutError(file, i + 1, `more than ${size}³ = ${size * size * size} table lines`);
    const [r, g, b] = triple(parts, i + 1, file);
    table[count * 3] = r;
    table[count * 3 + 1] = g;
    table[count * 3 + 2] = b;
    count++;
  }
  if (!table || size === undefined) throw lutError(file, lines.length, 'no LUT_3D_SIZE line');
  if (count !== size * size * size)
    throw lutError(file, lines.length, `the table has ${count} lines, LUT_3D_SIZE ${size} needs ${size * size * size}`);
  for (let c = 0; c < 3; c++) {
    if (!((domainMax[c] as number) > (domainMin[c] as number)))
      throw lutError(file, 1, 'DOMAIN_MAX must be greater than DOMAIN_MIN in every channel');
  }
  return { size, domainMin, domainMax, table };
}
