import { spawn } from 'node:child_process';
import { expect, test } from 'vitest';
import { allowedCpus, nextWorkerCpu, processTree } from './pin-to-cpu.js';

test('reads the allowed CPU list, ranges and single CPUs', () => {
  expect(allowedCpus('Name:\tnode\nCpus_allowed_list:\t0-3,6,8-9\n')).toEqual([0, 1, 2, 3, 6, 8, 9]);
  expect(allowedCpus('Cpus_allowed_list:\t5\n')).toEqual([5]);
  expect(allowedCpus('Name:\tnode\n')).toEqual([]);
  expect(allowedCpus()).not.toHaveLength(0); // this machine: Linux
});

test('hands out CPUs round-robin across calls, none when there is only one', () => {
  const first = nextWorkerCpu([2, 5])!;
  const second = nextWorkerCpu([2, 5])!;
  expect([first, second].sort()).toEqual([2, 5]);
  expect(nextWorkerCpu([2, 5])).toBe(first);
  expect(nextWorkerCpu([7])).toBeUndefined();
  expect(nextWorkerCpu([])).toBeUndefined();
});

test('lists a process and what it started, grandchildren included', async () => {
  const child = spawn('sh', ['-c', 'sleep 5 & wait'], { stdio: 'ignore' });
  try {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const tree = processTree(process.pid);
    expect(tree[0]).toBe(process.pid);
    expect(tree).toContain(child.pid);
    expect(tree.filter((pid) => processTree(child.pid!).includes(pid))).toHaveLength(2); // sh and its sleep
  } finally {
    child.kill('SIGKILL');
  }
});
