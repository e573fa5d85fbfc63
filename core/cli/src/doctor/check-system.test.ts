import { describe, expect, it } from 'vitest';
import { checkCpuPinning, checkDisk, checkMemory, checkNode, checkShm, checkWorkers } from './check-system.js';

const MB = 1024 * 1024;

describe('system checks', () => {
  it('needs Node 20.19 or newer', () => {
    expect(checkNode('20.19.0').status).toBe('ok');
    expect(checkNode('22.1.0').status).toBe('ok');
    const old = checkNode('20.18.1');
    expect(old.status).toBe('fail');
    expect(old.fix).toContain('20.19');
    expect(checkNode('18.20.0').status).toBe('fail');
  });

  it('warns about a /dev/shm under 512 MB and says what to do', () => {
    expect(checkShm(1024 * MB).status).toBe('ok');
    const small = checkShm(64 * MB);
    expect(small.status).toBe('warn');
    expect(small.summary).toBe('64 MB (under 512 MB)');
    expect(small.fix).toContain('--shm-size=1g');
    expect(checkShm(null).status).toBe('ok');
  });

  it('warns on little free memory', () => {
    expect(checkMemory(4096 * MB, 8192 * MB).status).toBe('ok');
    expect(checkMemory(300 * MB, 8192 * MB)).toMatchObject({ status: 'warn', summary: '300 MB free of 8.0 GB' });
  });

  it('warns on a nearly full disk and fails on a full one', () => {
    expect(checkDisk(5000 * MB, '/r').status).toBe('ok');
    expect(checkDisk(500 * MB, '/r').status).toBe('warn');
    const full = checkDisk(10 * MB, '/r');
    expect(full.status).toBe('fail');
    expect(full.fix).toContain('/r');
  });

  it('reports the worker count auto picks', () => {
    const result = checkWorkers(8, 6, { seconds: 60, fps: 30 });
    expect(result.status).toBe('ok');
    expect(result.summary).toContain('8 CPU cores; --workers auto picks 6');
  });

  it('says whether render workers can be pinned to CPUs, and how to fix it when not', () => {
    expect(checkCpuPinning([0, 1], '/usr/bin/taskset')).toMatchObject({ status: 'ok', summary: expect.stringContaining('2 (0,1)') });
    const missing = checkCpuPinning([0, 1], null);
    expect(missing.status).toBe('warn');
    expect(missing.fix).toContain('apt-get install util-linux');
    expect(checkCpuPinning([3], null).status).toBe('ok');
    expect(checkCpuPinning([], null).summary).toContain('Linux only');
  });
});
