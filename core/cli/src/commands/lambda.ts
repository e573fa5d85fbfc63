import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';
import { EXIT_FAILURE } from '../report-error.js';
import { invalidArgument } from '../usage-error.js';
import { lambdaTarget, loadLambdaClient, type LambdaProgress } from './lambda-client.js';
import { createProgressReporter } from './render-progress.js';
import { requestFromFlags } from './distributed-request-flags.js';

interface TargetFlags {
  function?: string;
  bucket?: string;
  region?: string;
  json?: boolean;
  quiet?: boolean;
  wait?: boolean;
  intervalMs?: string;
}

interface RenderFlags extends TargetFlags {
  variables?: string;
  variablesFile?: string;
  format?: string;
  quality?: string;
  fps?: string;
  frames?: string;
  scale?: string;
  captions?: string;
}

/** `seekframe lambda render <dir>` and `seekframe lambda progress <id>`: distributed renders on AWS Lambda. */
export function register(program: Command, ctx: CliContext): void {
  const lambda = program
    .command('lambda')
    .description('render on AWS Lambda (deploy first with `npx sst deploy`; see "Rendering on AWS Lambda" in the manual)');
  const targetOptions = (command: Command): Command =>
    command
      .option('--function <name>', 'the API function (sst deploy output apiFunction; or SEEKFRAME_LAMBDA_FUNCTION)')
      .option('--bucket <name>', 'the render bucket (sst deploy output bucket; or SEEKFRAME_LAMBDA_BUCKET)')
      .option('--region <region>', 'AWS region (default: AWS_REGION)')
      .option('--json', 'print progress events as JSON lines, like `render --json`')
      .option('--quiet', 'no progress output')
      .option('--interval-ms <ms>', 'how often to ask for progress while waiting', '2000');

  targetOptions(
    lambda
      .command('render')
      .description('upload a project and render it as chunks in parallel Lambda functions')
      .argument('<dir>', 'project folder (with index.html)')
      .option('--wait', 'wait for the render, showing progress, and print the output URL')
      .option('--variables <json>', 'JSON object of composition variables (at most 256 KiB)')
      .option('--variables-file <path>', 'JSON file with composition variables')
      .option('--format <format>', 'mp4 (the only format chunks join without re-encoding)')
      .option('--quality <preset>', 'draft | standard | high')
      .option('--fps <n>', 'frames per second (whole number)')
      .option('--frames <first-last>', 'render only these composition frames, both included (30-59, or 45 for one)')
      .option('--scale <n>', 'not available on Lambda yet (refused with the fix)')
      .option('--captions <file>', 'not available on Lambda yet (refused with the fix)'),
  ).action(async (dir: string, flags: RenderFlags) => {
    refuseLocalOnlyFlags(flags);
    const projectDir = path.resolve(ctx.cwd, dir);
    if (!(await stat(path.join(projectDir, 'index.html')).catch(() => null)))
      throw invalidArgument('dir', `${dir} has no index.html: pass a project folder.`);
    const request = await requestFromFlags(flags, ctx.cwd);
    const client = await loadLambdaClient();
    const target = await lambdaTarget(flags, ctx.env);
    const started = await client.renderOnLambda(target, { projectDir, request });
    if (flags.json) ctx.printJsonLine({ type: 'started', renderId: started.id });
    else if (!flags.quiet) ctx.note(`Started Lambda render ${started.id}.`);
    if (!flags.wait) {
      if (!flags.json && !flags.quiet) ctx.print(`Follow it with: seekframe lambda progress ${started.id} --wait`);
      return;
    }
    await follow(ctx, client, target, started.id, flags);
  });

  targetOptions(
    lambda
      .command('progress')
      .description('show the progress, cost estimate and output of a Lambda render')
      .argument('<id>', 'render id (printed by `seekframe lambda render`)')
      .option('--wait', 'keep showing progress until the render ends'),
  ).action(async (id: string, flags: TargetFlags) => {
    const client = await loadLambdaClient();
    const target = await lambdaTarget(flags, ctx.env);
    if (flags.wait) return follow(ctx, client, target, id, flags);
    const progress = await client.getRenderProgress(target, id);
    if (flags.json) ctx.printJson(progress);
    else printSummary(ctx, progress);
    if (progress.status === 'failed') ctx.exitCode = EXIT_FAILURE;
  });
}

async function follow(
  ctx: CliContext,
  client: Awaited<ReturnType<typeof loadLambdaClient>>,
  target: Awaited<ReturnType<typeof lambdaTarget>>,
  id: string,
  flags: TargetFlags,
): Promise<void> {
  const reporter = createProgressReporter(ctx, { quiet: flags.quiet === true, json: flags.json === true });
  const translate = client.createProgressTranslator();
  const interval = Number(flags.intervalMs ?? 2000);
  const started = Date.now();
  let last: LambdaProgress | undefined;
  try {
    last = await client.waitForRender(target, id, {
      intervalMs: Number.isFinite(interval) && interval > 0 ? interval : 2000,
      onProgress: (progress) => {
        last = progress;
        for (const event of translate(progress)) {
          if (event.type === 'cost') {
            if (flags.json) ctx.printJsonLine(event);
          } else reporter.onEvent(event);
        }
      },
    });
  } catch (error) {
    reporter.stop();
    if (flags.json && last) ctx.printJsonLine({ type: 'cost', cost: last.cost, chunks: last.chunks });
    else if (last && !flags.quiet) ctx.note(`Cost so far: ${last.cost.display}`);
    throw error;
  }
  reporter.stop();
  const output = last.output;
  if (flags.json) {
    ctx.printJsonLine({ type: 'cost', cost: last.cost, chunks: last.chunks });
    ctx.printJsonLine({
      type: 'complete',
      renderId: id,
      output: output?.url ?? output?.key ?? null,
      size: output?.size ?? 0,
      frames: output?.frames ?? 0,
      durationMs: Date.now() - started,
    });
  } else if (!flags.quiet) {
    printSummary(ctx, last);
  }
}

function printSummary(ctx: CliContext, p: LambdaProgress): void {
  const frames = p.totalFrames === null ? `${p.framesRendered} frames` : `${p.framesRendered}/${p.totalFrames} frames`;
  const chunks =
    p.chunks.total === null ? '' : `, chunks ${p.chunks.done}/${p.chunks.total}${p.chunks.retried ? ` (${p.chunks.retried} retried)` : ''}`;
  ctx.print(`${p.id}: ${p.status} (${p.stage}, ${Math.round(p.progress * 100)}%, ${frames}${chunks})`);
  ctx.print(
    `Cost: ${p.cost.display} — ${p.cost.lambdaGbSeconds} GB-s, ${p.cost.invocations} invocations, ${p.cost.sfnTransitions} state transitions; S3 not included`,
  );
  if (p.warning) ctx.note(`${ctx.colors.yellow('warning')} ${p.warning}`);
  if (p.output?.url) ctx.print(`Output (${p.output.size} bytes): ${p.output.url}`);
  if (p.error) ctx.note(`${ctx.colors.red('error')} ${p.error.code}: ${p.error.message}`);
}

/**
 * What `seekframe render` does that a Lambda render does not yet: the render API body has no
 * scale, and no way to hand back a second file. Said at once, with the command that does it.
 */
function refuseLocalOnlyFlags(flags: RenderFlags): void {
  if (flags.scale !== undefined) {
    throw invalidArgument(
      '--scale',
      `--scale is not available on Lambda yet: the render API takes no scale. Render it on this machine with \`seekframe render <dir> --scale ${flags.scale}\`, or on Lambda at --scale 1.`,
    );
  }
  if (flags.captions !== undefined) {
    throw invalidArgument(
      '--captions',
      `--captions is not available on Lambda yet: a Lambda render hands back one video. Write the captions file with \`seekframe render <dir> --captions ${flags.captions}\` (the file comes from the variables, so it matches the Lambda video frame for frame at the same fps).`,
    );
  }
  if (flags.format === 'hls') {
    throw invalidArgument(
      '--format',
      '--format hls is not available on Lambda: its segments are cut by one encoder, not joined from chunks. Render mp4 on Lambda, or hls with `seekframe render <dir> --format hls`.',
    );
  }
}
