import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { expect, test } from 'vitest';
import { classify, sampleProcessTree } from './sample-process-tree.js';

test('classifies the processes a render starts', () => {
  expect(classify('headless_shell')).toBe('browser');
  expect(classify('chromium')).toBe('browser');
  expect(classify('ffmpeg')).toBe('ffmpeg');
  expect(classify('ffprobe')).toBe('ffmpeg');
  expect(classify('node')).toBe('node');
  expect(classify('sh')).toBe('other');
});

test('counts the CPU time of a child that has already exited', async () => {
  const stop = sampleProcessTree(20);
  // A child that spins for ~400 ms of CPU, then exits before we stop sampling.
  const child = spawn(process.execPath, ['-e', 'const end = Date.now() + 400; while (Date.now() < end) {}']);
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
  const child = spawn(process.execPath, ['-e', 'const end = Date.now() + 300; while (Date.now() < end) {}']);
  await once(child, 'exit');
  const report = stop();
  const total = report.cpuSeconds.browser + report.cpuSeconds.ffmpeg + report.cpuSeconds.node + report.cpuSeconds.other;
  // The child's ~0.3 s reach the total through Node's cutime although no sample saw the child.
  expect(total).toBeGreaterThan(0.2);
  expect(report.cpuSeconds.browser).toBe(0);
  expect(report.cpuSeconds.ffmpeg).toBe(0);
});

test('does not count CPU spent before sampling began', async () => {
  const child = spawn(process.execPath, ['-e', 'const end = Date.now() + 300; while (Date.now() < end) {}']);
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
  const child = spawn('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=30', '-frames:v', '30', '-c:v', 'libx264', '-preset', 'slow', '-f', 'null', '-']);
  const [code] = await once(child, 'exit');
  expect(code).toBe(0);
  const report = stop();
  expect(report.cpuSeconds.ffmpeg).toBeGreaterThan(0.02);
  expect(report.cpuSeconds.browser).toBe(0);
  expect(report.cpuSeconds.other).toBe(0);
});
