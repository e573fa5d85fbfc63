import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import { aggregate } from './check-result.js';
import { formatDoctorReport } from './format-doctor-report.js';

const plain = pc.createColors(false);

describe('formatDoctorReport', () => {
  it('aligns checks, shows fixes under problems only, and ends with a verdict', () => {
    const report = aggregate([
      { id: 'node', title: 'Node.js', status: 'ok', summary: '20.20.2', fix: 'not shown' },
      { id: 'shm', title: '/dev/shm', status: 'warn', summary: '64 MB', fix: 'use --shm-size=1g' },
    ]);
    expect(formatDoctorReport(report, plain)).toEqual([
      'ok    Node.js   20.20.2',
      'warn  /dev/shm  64 MB',
      '                fix: use --shm-size=1g',
      '',
      '1 ok, 1 warning, 0 failures: ready to render (see the warnings).',
    ]);
  });

  it('says rendering cannot run when something failed', () => {
    const report = aggregate([{ id: 'ffmpeg', title: 'ffmpeg', status: 'fail', summary: 'not found', fix: 'apt-get install ffmpeg' }]);
    expect(formatDoctorReport(report, plain).at(-1)).toBe(
      '0 ok, 0 warnings, 1 failure: rendering cannot run until the failures are fixed.',
    );
  });
});
