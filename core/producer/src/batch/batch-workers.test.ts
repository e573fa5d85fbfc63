import { autoWorkerCount } from '@seekframe/engine';
import { describe, expect, it } from 'vitest';
import { workersPerRow } from './batch-workers.js';

describe('workersPerRow', () => {
  it('splits the auto count between concurrent rows, at least 1 each', () => {
    const auto = autoWorkerCount({ frameCount: 600 });
    expect(workersPerRow('auto', 1, 600)).toBe(auto);
    expect(workersPerRow('auto', 2, 600)).toBe(Math.max(1, Math.floor(auto / 2)));
    expect(workersPerRow('auto', 16, 600)).toBe(1);
  });

  it('keeps an explicit count per row, capped by the frame count', () => {
    expect(workersPerRow(3, 4, 600)).toBe(3);
    expect(workersPerRow(8, 1, 5)).toBe(5);
  });
});
