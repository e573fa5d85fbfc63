import path from 'node:path';

/**
 * What a process is, for the suite's profile and for the unit project's guard: read from the
 * command a test starts (`spawn(file, args)`) or from a running process's argv (/proc/<pid>/cmdline).
 * Node programs are named after their script (npm, npx, the Seekframe CLI, Verdaccio...), since
 * every one of them is `node`.
 */
export type ProcessKind =
  | 'chromium'
  | 'ffmpeg'
  | 'ffprobe'
  | 'container'
  | 'npm'
  | 'redis'
  | 'python'
  | 'workerd'
  | 'seekframe-cli'
  | 'node'
  | 'git'
  | 'shell'
  | 'other';

/**
 * Processes a unit test may not start: each costs from a few hundred milliseconds of CPU (npm,
 * ffprobe) to seconds (a browser, an image build), or competes for the machine like a browser
 * does. A file that starts one is a real-process suite and belongs in the `heavy` project.
 */
export const HEAVY_KINDS: ReadonlySet<ProcessKind> = new Set([
  'chromium',
  'ffmpeg',
  'ffprobe',
  'container',
  'npm',
  'redis',
  'python',
  'workerd',
  'seekframe-cli',
]);

const CHROMIUM = /^(chromium|chromium-browser|chrome|headless_shell|chrome-headless-shell|chromium-headless-shell)$/;
const CONTAINER = /^(podman|docker|buildah|conmon|runc|crun|mmdebstrap|slirp4netns|fuse-overlayfs)$/;

/** The kind of `argv` (argv[0] the program, as spawn or /proc gives it). */
export function processKind(argv: readonly string[]): ProcessKind {
  // A process that rewrote its title (Chromium's helpers, `npm exec ...`) has it all in argv[0].
  if (argv.length === 1 && /\s/.test(argv[0]!.trim())) return processKind(argv[0]!.trim().split(/\s+/));
  const program = path.basename(argv[0] ?? '');
  if (CHROMIUM.test(program)) return 'chromium';
  if (program === 'ffmpeg') return 'ffmpeg';
  if (program === 'ffprobe') return 'ffprobe';
  if (CONTAINER.test(program)) return 'container';
  if (program === 'npm' || program === 'npx') return 'npm';
  if (program === 'redis-server' || program === 'redis-cli') return 'redis';
  if (/^python3?(\.\d+)?$/.test(program) || program === 'uvicorn') return 'python';
  if (program === 'workerd' || program === 'wrangler') return 'workerd';
  if (program === 'git') return 'git';
  if (program === 'flock' || program === 'env' || program === 'timeout' || program === 'nice' || program === 'taskset')
    return commandAfter(argv);
  if (/^(sh|bash|dash)$/.test(program)) {
    // `sh -c "ffmpeg ..."` (spawn with `shell: true`) is the command it runs.
    const script = argv[1] === '-c' ? argv[2] : undefined;
    const words = script?.trim().split(/\s+/) ?? [];
    const inner = words.length > 0 && !/[;&|]/.test(words[0]!) ? processKind(words) : 'other';
    return inner === 'other' ? 'shell' : inner;
  }
  if (/^node(\d+)?$/.test(program) || program === path.basename(process.execPath)) return nodeScriptKind(argv.slice(1));
  return 'other';
}

/** `env X=1 cmd ...` / `flock LOCK cmd ...`: the kind of the command they run. */
function commandAfter(argv: readonly string[]): ProcessKind {
  const program = path.basename(argv[0] ?? '');
  const rest = argv.slice(1).filter((arg) => !arg.startsWith('-') && !(program === 'env' && arg.includes('=')));
  // flock LOCK cmd, timeout DURATION cmd, taskset [-c] CPUS cmd: one operand before the command.
  const command = program === 'flock' || program === 'timeout' || program === 'taskset' ? rest.slice(1) : rest;
  return command.length > 0 ? processKind(command) : 'shell';
}

/** `node [flags] script ...`: named after the script. */
function nodeScriptKind(args: readonly string[]): ProcessKind {
  const script = nodeScript(args);
  if (/npm-cli\.js$|npx-cli\.js$|[/\\]\.bin[/\\](npm|npx)$/.test(script)) return 'npm';
  if (/verdaccio/.test(script)) return 'npm';
  if (/wrangler|workerd/.test(script)) return 'workerd';
  if (/[/\\]bin[/\\]seekframe(\.js)?$|core[/\\]cli[/\\](dist|src)[/\\]|run-from-source\.mjs$/.test(script)) return 'seekframe-cli';
  return 'node';
}

/** Node options that take the next argument as their value. */
const NODE_OPTIONS_WITH_VALUE = new Set([
  '--import',
  '--require',
  '-r',
  '--loader',
  '--experimental-loader',
  '--conditions',
  '-C',
  '--env-file',
]);

/** The script of `node [options] script [args]` ('' for `node -e` and the REPL). */
function nodeScript(args: readonly string[]): string {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '-e' || arg === '--eval' || arg === '-p' || arg === '--print') return '';
    if (!arg.startsWith('-')) return arg;
    if (NODE_OPTIONS_WITH_VALUE.has(arg)) i++;
  }
  return '';
}

/** True for a browser's first process (the one a launch starts); its helpers carry `--type=`. */
export function isBrowserMain(argv: readonly string[]): boolean {
  return processKind(argv) === 'chromium' && !argv.some((arg) => /(^|\s)--type=/.test(arg));
}
