import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { createTreeCpu } from './tree-cpu.js';

// The child spins 0.4 s of CPU only once it is told to, after the reader has seen it: a reader
// counts a process from its first reading on, and on a busy machine the child could otherwise
// spend its CPU before the test's first reading (it once read 0.19 s for 90 s: the rest was spent
// before the baseline). `; exit 0` keeps the shell as the parent, so the spinner is a child the
// reader must find by walking the tree.
const SPINNER = `process.stdout.write('ready\\n');
process.stdin.once('data', () => {
  const from = process.cpuUsage().user;
  while (process.cpuUsage().user - from < 400000) {}
  setInterval(() => {}, 1000);
});`;

describe.runIf(process.platform === 'linux')('createTreeCpu', () => {
  // The bound on the spin (90 s) is inside the test's own limit, so a machine that barely runs the
  // child fails with the readings it got, not with a bare timeout.
  it('counts the CPU of what a process started while it runs, and never goes backwards', { timeout: 150_000 }, async () => {
    // The program and its script reach the shell through its environment: nothing to quote.
    const shell = spawn('sh', ['-c', '"$NODE" -e "$SPINNER"; exit 0'], {
      env: { ...process.env, NODE: process.execPath, SPINNER },
      stdio: ['pipe', 'pipe', 'ignore'],
      detached: true,
    });
    const cpu = createTreeCpu(shell.pid!);
    try {
      const lines = createInterface({ input: shell.stdout! });
      await Promise.race([
        once(lines, 'line'),
        new Promise((_, reject) => setTimeout(() => reject(new Error('waited 30 s for the spinner to start')), 30_000).unref()),
      ]);
      // The first reading walks the tree: the spinner is a member, its CPU so far the baseline.
      const readings: number[] = [cpu.read()!];
      shell.stdin!.write('go\n');
      // Until the child has spun its 0.4 s (a bound for a machine that barely runs it).
      for (const spunBy = Date.now() + 90_000; readings.at(-1)! < 0.35 && Date.now() < spunBy; ) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        readings.push(cpu.read()!);
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
