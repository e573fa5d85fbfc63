// Renders one range of a plan in its own process, the way a separate function invocation (a
// Lambda chunk) would: it gets only the plan's JSON and its own copy of the project.
// Usage: tsx render-range-process.ts <plan.json> <projectDir> <start> <end> <output>
import { readFile } from 'node:fs/promises';
import { renderFrames, type RenderPlan } from '../../src/index.js';

const [planFile, projectDir, start, end, output] = process.argv.slice(2);
const plan = JSON.parse(await readFile(planFile!, 'utf8')) as RenderPlan;
const result = await renderFrames(
  plan,
  { start: Number(start), end: Number(end) },
  { kind: 'segment', path: output! },
  { projectDir: projectDir! },
);
process.stdout.write(JSON.stringify(result));
