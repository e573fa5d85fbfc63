import { describe, expect, it } from 'vitest';
import { aggregate, formatBytes, safely, type CheckResult } from './check-result.js';

const check = (id: string, status: CheckResult['status']): CheckResult => ({ id, title: id, status, summary: '' });

describe('aggregate', () => {
  it('is ok when every check is ok', () => {
    expect(aggregate([check('a', 'ok'), check('b', 'ok')])).toMatchObject({ status: 'ok', counts: { ok: 2, warn: 0, fail: 0 } });
  });

  it('lets the worst status win and counts each', () => {
    expect(aggregate([check('a', 'warn'), check('b', 'ok')]).status).toBe('warn');
    expect(aggregate([check('a', 'warn'), check('b', 'fail'), check('c', 'ok')])).toMatchObject({
      status: 'fail',
      counts: { ok: 1, warn: 1, fail: 1 },
    });
  });

  it('is ok for no checks', () => {
    expect(aggregate([]).status).toBe('ok');
  });
});

describe('safely', () => {
  it('turns a thrown check into a failure that carries the message', async () => {
    const results = await safely('shm', '/dev/shm', async () => {
      throw new Error('statfs exploded');
    });
    expect(results).toEqual([{ id: 'shm', title: '/dev/shm', status: 'fail', summary: 'check failed', fix: 'statfs exploded' }]);
  });
});

describe('formatBytes', () => {
  it('picks a readable unit', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(64 * 1024 * 1024)).toBe('64 MB');
    expect(formatBytes(1.5 * 1024 ** 3)).toBe('1.5 GB');
  });
});
