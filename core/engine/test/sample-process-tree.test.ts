import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { classify, sampleProcessTree } from '../src/measure/sample-process-tree.js';
import { until } from './until.js';

test('classifies the processes a render starts', () => {
  expect(classify('headless_shell')).toBe('browser');
  expect(classify('chromium')).toBe('browser');
  expect(classify('ffmpeg')).toBe('ffmpeg');
  expect(classify('ffprobe')).toBe('ffmpeg');
  expect(classify('node')).toBe('node');
  expect(classify('seekframe rende')).toBe('node');
  expect(classify('sh')).toBe('other');
});

/**
 * `node -e` spinning until it has used `ms` of CPU (not of wall time: on a busy machine a wall
 * time of spinning can be a small fraction of CPU), then exiting.
 */
function spinCpu(ms: number) {
  return spawn(process.execPath, ['-e', `while (process.cpuUsage().user < ${ms * 1000}) {}`]);
}

test('counts the CPU time of a child that has already exited', async () => {
  const stop = sampleProcessTree(20);
  // A child that spins for 400 ms of CPU, then exits before we stop sampling.
  const child = spinCpu(400);
  await once(child, 'exit');
  const report = stop();
  expect(report.cpuSeconds.node).toBeGreaterThan(0.25);
  expect(report.peakRssBytes).toBeGreaterThan(10 * 2 ** 20);
  expect(report.wallSeconds).toBeGreaterThan(0.3);
  expect(report.idleFraction).toBeGreaterThanOrEqual(0);
  expect(report.idleFraction).toBeLessThan(1);
  expect(report.othersFraction).toBeGreaterThanOrEqual(0);
  expect(report.othersFraction).toBeLessThanOrEqual(1);
});

test('counts a child that started and exited between two samples (reaped CPU)', async () => {
  const stop = sampleProcessTree(60_000); // no sample runs between the first and the last
  const child = spinCpu(300);
  await once(child, 'exit');
  const report = stop();
  const total = report.cpuSeconds.browser + report.cpuSeconds.ffmpeg + report.cpuSeconds.node + report.cpuSeconds.other;
  // The child's ~0.3 s reach the total through Node's cutime although no sample saw the child.
  expect(total).toBeGreaterThan(0.2);
  expect(report.cpuSeconds.browser).toBe(0);
  expect(report.cpuSeconds.ffmpeg).toBe(0);
});

test('does not count CPU spent before sampling began', async () => {
  const child = spinCpu(300);
  await once(child, 'exit');
  const stop = sampleProcessTree(20);
  await new Promise((resolve) => setTimeout(resolve, 100));
  const report = stop();
  const total = report.cpuSeconds.browser + report.cpuSeconds.ffmpeg + report.cpuSeconds.node + report.cpuSeconds.other;
  expect(total).toBeLessThan(0.15);
});

test('counts a short ffmpeg that no sample saw as encode CPU, not as another class', async () => {
  const stop = sampleProcessTree(60_000); // no sample runs between the first and the last
  // ~1 s of 320x240 testsrc through x264: a few tenths of a second of CPU, in one short process.
  const child = spawn('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=320x240:rate=30',
    '-frames:v',
    '30',
    '-c:v',
    'libx264',
    '-preset',
    'slow',
    '-f',
    'null',
    '-',
  ]);
  const [code] = await once(child, 'exit');
  expect(code).toBe(0);
  const report = stop();
  expect(report.cpuSeconds.ffmpeg).toBeGreaterThan(0.02);
  expect(report.cpuSeconds.browser).toBe(0);
  expect(report.cpuSeconds.other).toBe(0);
});

test('splits children that Node reaps in one pass by what it saw of each, not all to the first', async () => {
  const stop = sampleProcessTree(20);
  // Two children of different classes, stopped together: an ffmpeg (little CPU) and a spinner that
  // says so once it has spent 0.3 s of CPU, then spins on (its CPU, not a wall time, so that
  // even a loaded machine gives it well over 0.2 s and the check below means something).
  const encode = spawn('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-re',
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=320x240:rate=30',
    '-f',
    'null',
    '-',
  ]);
  // perl: class other (node's class also holds this test's own process and its busy wait).
  const spin = spawn('perl', ['-e', '$| = 1; 1 while (times)[0] < 0.3; print "spun"; 1 while 1']);
  const exits = Promise.all([once(encode, 'exit'), once(spin, 'exit')]);
  await within(once(spin.stdout, 'data'), 'the spinner to spend 0.3 s of CPU');
  // Both frozen first (SIGSTOP), then one more sample: it sees what each spent in the end, however
  // rarely a busy machine let the sampler run before. Then both killed at once, and the event loop
  // held until both have exited, so libuv reaps them in one pass; meanwhile read what each really
  // spent from its zombie's stat.
  encode.kill('SIGSTOP');
  spin.kill('SIGSTOP');
  const state = (pid: number): string => readFileSync(`/proc/${pid}/stat`, 'latin1').split(') ')[1]!.split(' ')[0]!;
  await until(() => state(encode.pid!) === 'T' && state(spin.pid!) === 'T', 'both children to stop');
  // Sampled every 20 ms: a timer set now fires after the sampler's next turn.
  await new Promise((resolve) => setTimeout(resolve, 100));
  encode.kill('SIGKILL');
  spin.kill('SIGKILL');
  const total = (pid: number): number | undefined => {
    const fields = readFileSync(`/proc/${pid}/stat`, 'latin1').split(') ')[1]!.split(' ');
    return fields[0] === 'Z' ? [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]) / 100, 0) : undefined;
  };
  // A killed process is a zombie within milliseconds; the bound is for a machine that barely schedules us.
  const bothKilled = Date.now() + 30_000;
  let truth: [number | undefined, number | undefined] = [undefined, undefined];
  while ((truth[0] === undefined || truth[1] === undefined) && Date.now() < bothKilled) truth = [total(encode.pid!), total(spin.pid!)];
  expect(truth.every((value) => value !== undefined)).toBe(true); // both were zombies at once
  await exits;
  const report = stop();
  expect(truth[1]!).toBeGreaterThan(0.2);
  // What each spent, as last seen before the kill (both frozen by then), not all of it to one class.
  expect(Math.abs(report.cpuSeconds.ffmpeg - truth[0]!)).toBeLessThan(0.12);
  expect(Math.abs(report.cpuSeconds.other - truth[1]!)).toBeLessThan(0.12);
});

/** `promise`, or a failure naming what it waited for after a bound generous for a loaded machine. */
async function within<T>(promise: Promise<T>, what: string, ms = 60_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`waited ${ms / 1000} s for ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
