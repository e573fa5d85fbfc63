/**
 * Seekframe beside its peers, in one run on one machine: HyperFrames and Remotion are installed
 * from the npm registry into a scratch folder under the system's temp folder (their own
 * package.json, never this workspace), the same composition is written for each (composition.ts),
 * and each tool renders it per quality level: one warm-up, then `--runs` timed runs (default 3),
 * medians printed. Quality: SSIM and PSNR of each output against that tool's own lossless frames
 * (HyperFrames and Remotion: a PNG sequence; Seekframe: `--crf 0`, the frames x264 gets from its
 * capture, since its PNG output goes through another capture path).
 *
 *   npx tsx bench/peers/index.ts                                   # 1920x1080, 10 s at 30 fps, draft + standard, 3 runs
 *   npx tsx bench/peers/index.ts --seconds 2 --size 640x360 --runs 1 --tools seekframe,hyperframes
 *   npx tsx bench/peers/index.ts --keep                            # keep the scratch folder (outputs, logs)
 *
 * Every tool uses Debian's Chromium (the same binary Seekframe finds): HyperFrames through
 * HYPERFRAMES_BROWSER_PATH, Remotion through `browserExecutable`. Nothing downloads a browser.
 * HyperFrames needs Node 22: the `node@22` package from the registry runs it (Seekframe's own
 * renders run on this Node). Quality levels per tool:
 *   HyperFrames: --quality draft|standard (its own presets); Seekframe: --quality draft|standard;
 *   Remotion: draft = crf 28 + x264 ultrafast, standard = its defaults (crf 18, medium).
 * Wall time on a shared machine is noise: the CPU seconds of each render's process tree are
 * printed beside it, with the load average. Uses the built packages (`npx turbo run build`).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findBrowser, sampleProcessTree } from '@seekframe/engine';
import { peerHtml, remotionFiles, type PeerComposition } from './composition.js';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
/** Versions this bench was written against; `--versions latest` takes the newest instead. */
const PINNED = {
  hyperframes: '0.8.170',
  node22: '22.23.3',
  remotion: '4.0.529',
  react: '19.2.0',
};
const latest = arg('--versions') === 'latest';
const [width, height] = (arg('--size') ?? '1920x1080').split('x').map(Number) as [number, number];
const composition: PeerComposition = { width, height, fps: 30, duration: Number(arg('--seconds') ?? 10) };
const levels = (arg('--levels') ?? 'draft,standard').split(',') as Array<'draft' | 'standard'>;
const runs = Math.max(1, Number(arg('--runs') ?? 3));
const tools = (arg('--tools') ?? 'seekframe,hyperframes,remotion').split(',');
const keep = process.argv.includes('--keep');
const log = (line: string): void => console.error(line);
const loadAverage = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

interface Run {
  wall: number;
  cpu: number;
  output: string;
}

/** Runs a command to completion; rejects with its last output on failure. */
function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; log: string }): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keepTail = (chunk: Buffer): void => void (output = (output + chunk.toString()).slice(-20_000));
    child.stdout.on('data', keepTail);
    child.stderr.on('data', keepTail);
    child.on('error', reject);
    child.on('close', (code) => {
      writeFileSync(options.log, output);
      if (code === 0) resolve();
      else reject(new Error(`${command} ${args.join(' ')} exited ${code}:\n${output.slice(-2_000)}`));
    });
  });
}

/** Wall and CPU seconds (the whole process tree: the tool, its browsers, its ffmpeg) of one render. */
async function timed(render: () => Promise<string>): Promise<Run> {
  const stop = sampleProcessTree(100);
  const output = await render();
  const usage = stop();
  const cpu = usage.cpuSeconds.browser + usage.cpuSeconds.ffmpeg + usage.cpuSeconds.node + usage.cpuSeconds.other;
  return { wall: usage.wallSeconds, cpu, output };
}

/** SSIM and PSNR of `video` against `reference` (a video, or a folder of PNG frames). */
async function quality(video: string, reference: string, work: string): Promise<{ ssim: number; psnr: number }> {
  const ref = statSync(reference).isDirectory() ? pngPattern(reference) : ['-i', reference];
  const logFile = join(work, 'quality.log');
  await run(
    'ffmpeg',
    [
      '-hide_banner',
      '-nostdin',
      '-i',
      video,
      ...ref,
      '-lavfi',
      '[0:v]split[a][b];[1:v]split[c][d];[a][c]ssim;[b][d]psnr',
      '-f',
      'null',
      '-',
    ],
    { cwd: work, log: logFile },
  );
  const text = readFileSync(logFile, 'utf8');
  return { ssim: Number(/SSIM .*All:([\d.]+)/.exec(text)?.[1]), psnr: Number(/PSNR .*average:([\d.inf]+)/.exec(text)?.[1]) };
}

/** ffmpeg input arguments for the PNG frames in a folder, whatever a tool names them (sorted). */
function pngPattern(folder: string): string[] {
  const files = readdirSync(folder)
    .filter((f) => f.endsWith('.png'))
    .sort();
  const list = join(folder, 'frames.txt');
  writeFileSync(list, files.map((f) => `file '${join(folder, f)}'\nduration ${1 / composition.fps}`).join('\n'));
  return ['-f', 'concat', '-safe', '0', '-i', list];
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

interface Tool {
  name: string;
  render(level: 'draft' | 'standard', output: string): Promise<string>;
  /** The tool's own lossless frames (a folder of PNGs, or a lossless video). */
  lossless(output: string): Promise<string>;
}

async function main(): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'seekframe-peers-'));
  const htmlDir = join(scratch, 'html');
  mkdirSync(htmlDir, { recursive: true });
  writeFileSync(join(htmlDir, 'index.html'), peerHtml(composition));
  const browser = await findBrowser();
  log(`scratch folder ${scratch}; browser ${browser.path} ${browser.version}`);
  const available: Tool[] = [];
  try {
    if (tools.includes('seekframe')) available.push(seekframeTool(htmlDir, scratch));
    const peers = tools.filter((t) => t !== 'seekframe');
    if (peers.length > 0) {
      writeFileSync(
        join(scratch, 'package.json'),
        JSON.stringify({ name: 'seekframe-peers-scratch', private: true, type: 'module' }, null, 2),
      );
      const v = (name: keyof typeof PINNED): string => (latest ? 'latest' : PINNED[name]);
      const packages = [
        ...(peers.includes('hyperframes') ? [`hyperframes@${v('hyperframes')}`, `node@${v('node22')}`] : []),
        ...(peers.includes('remotion')
          ? ['remotion', '@remotion/bundler', '@remotion/renderer']
              .map((p) => `${p}@${v('remotion')}`)
              .concat([`react@${v('react')}`, `react-dom@${v('react')}`])
          : []),
      ];
      log(`installing ${packages.join(' ')} into ${scratch}`);
      await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel', 'error', ...packages], {
        cwd: scratch,
        log: join(scratch, 'npm-install.log'),
      });
      if (peers.includes('hyperframes')) available.push(hyperframesTool(htmlDir, scratch, browser.path));
      if (peers.includes('remotion')) available.push(await remotionTool(scratch, browser.path));
    }

    const rows: Array<Record<string, string | number>> = [];
    for (const tool of available) {
      const work = join(scratch, tool.name);
      mkdirSync(work, { recursive: true });
      log(`${tool.name}: lossless reference`);
      const reference = await tool.lossless(join(work, 'lossless'));
      for (const level of levels) {
        log(`${tool.name} ${level}: warm-up`);
        await tool.render(level, join(work, `warmup-${level}.mp4`));
        const timedRuns: Run[] = [];
        for (let i = 1; i <= runs; i++) {
          log(`${tool.name} ${level}: run ${i}/${runs}`);
          timedRuns.push(await timed(() => tool.render(level, join(work, `${level}-${i}.mp4`))));
        }
        const output = timedRuns.at(-1)!.output;
        const scores = await quality(output, reference, work);
        rows.push({
          tool: tool.name,
          level,
          wall: median(timedRuns.map((r) => r.wall)),
          cpu: median(timedRuns.map((r) => r.cpu)),
          bytes: statSync(output).size,
          ssim: scores.ssim,
          psnr: scores.psnr,
          load: loadAverage(),
        });
        log(`  median ${rows.at(-1)!.wall} s, SSIM ${scores.ssim}`);
      }
    }
    printTable(rows);
  } finally {
    if (keep) log(`kept ${scratch}`);
    else rmSync(scratch, { recursive: true, force: true });
  }
}

function printTable(rows: Array<Record<string, string | number>>): void {
  const frames = Math.round(composition.duration * composition.fps);
  console.log(
    `\n${composition.width}x${composition.height}, ${frames} frames at ${composition.fps} fps; medians of ${runs} timed runs after one warm-up\n`,
  );
  console.log('| tool | level | wall s | CPU s | frames/s | size MB | SSIM | PSNR dB | Seekframe speed-up (wall) | load average |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const row of rows) {
    const ours = rows.find((r) => r.tool === 'seekframe' && r.level === row.level);
    const speedup = ours && row.tool !== 'seekframe' ? `${((row.wall as number) / (ours.wall as number)).toFixed(2)}x` : '';
    console.log(
      `| ${row.tool} | ${row.level} | ${(row.wall as number).toFixed(1)} | ${(row.cpu as number).toFixed(1)} | ${(frames / (row.wall as number)).toFixed(2)} | ` +
        `${((row.bytes as number) / 2 ** 20).toFixed(2)} | ${(row.ssim as number).toFixed(4)} | ${(row.psnr as number).toFixed(2)} | ${speedup} | ${row.load} |`,
    );
  }
}

function seekframeTool(htmlDir: string, scratch: string): Tool {
  const cli = join(repoRoot, 'core/cli/bin/seekframe.js');
  const render = async (args: string[], output: string): Promise<string> => {
    await run(process.execPath, [cli, 'render', htmlDir, '--output', output, ...args], { cwd: scratch, log: `${output}.log` });
    return output;
  };
  return {
    name: 'seekframe',
    render: (level, output) => render(['--quality', level], output),
    lossless: (output) => render(['--crf', '0'], `${output}.mp4`),
  };
}

function hyperframesTool(htmlDir: string, scratch: string, browserPath: string): Tool {
  const node22 = join(scratch, 'node_modules/node/bin/node');
  const cli = join(scratch, 'node_modules/hyperframes/bin/hyperframes.mjs');
  const env = { HYPERFRAMES_BROWSER_PATH: browserPath, HYPERFRAMES_NO_TELEMETRY: '1', DO_NOT_TRACK: '1' };
  const render = async (args: string[], output: string): Promise<string> => {
    await run(existsSync(node22) ? node22 : 'node', [cli, 'render', htmlDir, '--output', output, ...args], {
      cwd: scratch,
      env,
      log: `${output}.log`,
    });
    return output;
  };
  return {
    name: 'hyperframes',
    render: (level, output) => render(['--quality', level], output),
    lossless: (output) => render(['--format', 'png-sequence'], output),
  };
}

async function remotionTool(scratch: string, browserPath: string): Promise<Tool> {
  const project = join(scratch, 'remotion');
  for (const [file, text] of Object.entries(remotionFiles(composition))) {
    mkdirSync(dirname(join(project, file)), { recursive: true });
    writeFileSync(join(project, file), text);
  }
  // One script per render, run with this Node: bundles once (cached in the project), then renders.
  const script = join(project, 'render.mjs');
  writeFileSync(
    script,
    `import { existsSync } from 'node:fs';
import { bundle } from '@remotion/bundler';
import { renderFrames, renderMedia, selectComposition } from '@remotion/renderer';
const [mode, output] = process.argv.slice(2);
const serveUrl = existsSync('${project}/build/index.html') ? '${project}/build' : await bundle({ entryPoint: '${project}/src/index.ts', outDir: '${project}/build' });
if (mode === 'bundle-only') process.exit(0);
const browserExecutable = ${JSON.stringify(browserPath)};
const composition = await selectComposition({ serveUrl, id: 'peers', browserExecutable });
if (mode === 'lossless') {
  await renderFrames({ serveUrl, composition, outputDir: output, imageFormat: 'png', browserExecutable, onStart: () => {}, onFrameUpdate: () => {} });
} else {
  const settings = mode === 'draft' ? { crf: 28, x264Preset: 'ultrafast' } : {};
  await renderMedia({ serveUrl, composition, codec: 'h264', outputLocation: output, browserExecutable, ...settings });
}
`,
  );
  // The bundle is made once, before anything is timed (the other tools have no bundling step).
  await run(process.execPath, [script, 'bundle-only', join(project, 'unused.mp4')], {
    cwd: project,
    log: join(project, 'bundle.log'),
  }).catch(() => undefined);
  return {
    name: 'remotion',
    render: async (level, output) => {
      await run(process.execPath, [script, level, output], { cwd: project, log: `${output}.log` });
      return output;
    },
    lossless: async (output) => {
      await run(process.execPath, [script, 'lossless', output], { cwd: project, log: `${output}.log` });
      return output;
    },
  };
}

await main();
