import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createTreeCpu } from './tree-cpu.js';

describe.runIf(process.platform === 'linux')('createTreeCpu', () => {
  // The bound on the spin (90 s) is inside the test's own limit, so a machine that barely runs the
  // child fails with the readings it got, not with a bare timeout.
  it('counts the CPU of what a process started while it runs, and never goes backwards', { timeout: 120_000 }, async () => {
    const shell = spawn(
      'sh',
      ['-c', `${JSON.stringify(process.execPath)} -e "while (process.cpuUsage().user < 400000) {} setInterval(() => {}, 1000)"`],
      {
        stdio: 'ignore',
        detached: true,
      },
    );
    const cpu = createTreeCpu(shell.pid!);
    try {
      const readings: number[] = [];
      // Until the child has spun its 0.4 s (a bound for a machine that barely runs it).
      for (const spunBy = Date.now() + 90_000; (readings.at(-1) ?? 0) < 0.35 && Date.now() < spunBy; ) {
        readings.push(cpu.read()!);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(
        readings.at(-1),
        `CPU seconds read while the child spun: ${readings.slice(-5).join(', ')} (${readings.length} readings)`,
      ).toBeGreaterThanOrEqual(0.35);
      expect(readings.every((value, i) => i === 0 || value >= readings[i - 1]!)).toBe(true);
      // A pid with no process reads undefined (nothing to measure), not 0.
      expect(createTreeCpu(2 ** 22 + 1).read()).toBeUndefined();
    } finally {
      cpu.close();
      process.kill(-shell.pid!, 'SIGKILL');
    }
  });
});
