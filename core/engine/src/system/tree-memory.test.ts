import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createTreeMemory, parseStatusMemory } from './tree-memory.js';

describe('parseStatusMemory', () => {
  it('counts anonymous and shared memory, not the pages of mapped files', () => {
    const status =
      'Name:\tchromium\nPPid:\t4242\nVmRSS:\t  520000 kB\nRssAnon:\t  100000 kB\nRssFile:\t  415000 kB\nRssShmem:\t    5000 kB\n';
    expect(parseStatusMemory(status)).toEqual({ ppid: 4242, bytes: 105_000 * 1024 });
  });

  it('falls back to VmRSS on kernels without the split (before 4.5)', () => {
    expect(parseStatusMemory('PPid:\t1\nVmRSS:\t 2048 kB\n')).toEqual({ ppid: 1, bytes: 2048 * 1024 });
  });
});

describe('createTreeMemory', () => {
  it('adds up a process and everything below it, and follows the tree as it grows', { timeout: 20_000 }, async () => {
    const tree = createTreeMemory();
    // A shell whose child holds ~64 MB of anonymous memory.
    const shell = spawn(
      'sh',
      ['-c', `${JSON.stringify(process.execPath)} -e "globalThis.b = Buffer.alloc(64 * 2 ** 20, 1); setInterval(() => {}, 1000)" & wait`],
      { stdio: 'ignore', detached: true },
    );
    try {
      let held = 0;
      // Until the child holds its buffer (a bound for a machine that barely runs it).
      for (const heldBy = Date.now() + 60_000; held < 64 * 2 ** 20 && Date.now() < heldBy; ) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        held = tree.read([shell.pid!]).get(shell.pid!)!;
      }
      expect(tree.supported).toBe(true);
      expect(held).toBeGreaterThan(64 * 2 ** 20);
      expect(held).toBeLessThan(512 * 2 ** 20);
      // A pid with no process reads 0.
      expect(tree.read([2 ** 22 + 1]).get(2 ** 22 + 1)).toBe(0);
    } finally {
      tree.close();
      process.kill(-shell.pid!, 'SIGKILL'); // its own process group: the shell and the child
    }
  });
});
