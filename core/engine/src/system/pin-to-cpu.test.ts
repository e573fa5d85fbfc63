import { spawn } from 'node:child_process';
import { expect, test } from 'vitest';
import { allowedCpus, processTree, reserveWorkerCpus } from './pin-to-cpu.js';

test('reads the allowed CPU list, ranges and single CPUs', () => {
  expect(allowedCpus('Name:\tnode\nCpus_allowed_list:\t0-3,6,8-9\n')).toEqual([0, 1, 2, 3, 6, 8, 9]);
  expect(allowedCpus('Cpus_allowed_list:\t5\n')).toEqual([5]);
  expect(allowedCpus('Name:\tnode\n')).toEqual([]);
  expect(allowedCpus()).not.toHaveLength(0); // this machine: Linux
});

test('gives each worker slot a fixed CPU and starts each pool where the last one stopped', () => {
  const first = reserveWorkerCpus(2, [2, 5])!;
  expect([first(0), first(1)].sort()).toEqual([2, 5]);
  // A replacement worker keeps its slot's CPU, whatever other pools reserved since.
  const slotOne = first(1);
  reserveWorkerCpus(3, [2, 5]);
  expect(first(1)).toBe(slotOne);
  expect(first(2)).toBe(first(0));
  const next = reserveWorkerCpus(1, [2, 5, 7])!;
  const after = reserveWorkerCpus(1, [2, 5, 7])!;
  expect(next(0)).not.toBe(after(0));
  expect(reserveWorkerCpus(2, [7])).toBeUndefined();
  expect(reserveWorkerCpus(2, [])).toBeUndefined();
});

test('lists a process and what it started, grandchildren included', async () => {
  const child = spawn('sh', ['-c', 'sleep 5 & wait'], { stdio: 'ignore' });
  try {
    // Until the shell has started its sleep (a bound for a machine that barely runs it).
    const forkedBy = Date.now() + 30_000;
    while (processTree(child.pid!).length < 2 && Date.now() < forkedBy) await new Promise((resolve) => setTimeout(resolve, 20));
    const tree = processTree(process.pid);
    expect(tree[0]).toBe(process.pid);
    expect(tree).toContain(child.pid);
    expect(tree.filter((pid) => processTree(child.pid!).includes(pid))).toHaveLength(2); // sh and its sleep
  } finally {
    child.kill('SIGKILL');
  }
});
