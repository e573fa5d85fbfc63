import path from 'node:path';
import type { RenderFlags } from '../commands/render-flags.js';

/** Where the project, the output folder and input files appear inside the container. */
export const CONTAINER_PROJECT = '/project';
export const CONTAINER_OUTPUT = '/output';
export const CONTAINER_INPUTS = '/inputs';

/**
 * Flags the host handles itself (paths are rewritten to mounts, --docker is what got us here)
 * or that --docker fixes: everything else is passed through unchanged.
 */
const HOST_FLAGS = new Set<keyof RenderFlags | string>([
  'output',
  'docker',
  'captureMode',
  'browserGpu',
  'variablesFile',
  'batch',
  'batchConcurrency',
  'batchFailFast',
  'batchResume',
]);

/** Variables forwarded to the container when set on the host; nothing else crosses over. */
export const FORWARDED_ENV = ['SEEKFRAME_DEBUG', 'NO_COLOR', 'FORCE_COLOR'] as const;

export interface DockerRenderPlan {
  image: string;
  /** The folder served as the site root (mounted read-only). */
  projectRoot: string;
  /** Entry HTML relative to projectRoot, POSIX separators. */
  entry: string;
  /** Absolute output path on the host (a folder for png-sequence); its parent is mounted read-write. */
  output: string;
  /** Absolute path of --variables-file on the host, mounted read-only. */
  variablesFile?: string;
  /** The calling user, so the output belongs to them; omitted where the OS has no uid (Windows). */
  user?: { uid: number; gid: number };
  flags: RenderFlags;
  env: NodeJS.ProcessEnv;
}

/**
 * The `docker run` command line (without the leading `docker`) for `seekframe render --docker`.
 * Pure, so tests check it exactly. The container runs the same CLI: beginframe capture and
 * software Chromium are forced, the project is read-only, only the output folder is writable,
 * and the process runs as the calling user (HOME=/tmp: that uid has no home in the image). The
 * container has the engine's default network: a composition may load public assets, as a local
 * render does.
 */
export function buildDockerArgv(plan: DockerRenderPlan): string[] {
  const outputName = path.basename(plan.output);
  const mounts = [
    mount(plan.projectRoot, CONTAINER_PROJECT, true),
    mount(path.dirname(plan.output), CONTAINER_OUTPUT, false),
    ...(plan.variablesFile ? [mount(plan.variablesFile, `${CONTAINER_INPUTS}/variables.json`, true)] : []),
  ];
  const env = FORWARDED_ENV.filter((name) => plan.env[name] !== undefined).flatMap((name) => ['--env', `${name}=${plan.env[name]}`]);
  const entry = plan.entry === 'index.html' ? CONTAINER_PROJECT : `${CONTAINER_PROJECT}/${plan.entry}`;
  return [
    'run',
    '--rm',
    ...(plan.user ? ['--user', `${plan.user.uid}:${plan.user.gid}`] : []),
    // Chromium keeps rendered tiles in /dev/shm; Docker's 64 MB default crashes busy pages.
    '--shm-size',
    '1g',
    ...mounts.flatMap((m) => ['--mount', m]),
    '--env',
    'HOME=/tmp',
    // Every path the CLI inside prints is then absolute (/output/..., /project/...), which the
    // host maps back to its own paths (relay-container-output.ts).
    '--workdir',
    CONTAINER_PROJECT,
    ...env,
    plan.image,
    'render',
    entry,
    '--output',
    `${CONTAINER_OUTPUT}/${outputName}`,
    '--capture-mode',
    'beginframe',
    '--no-browser-gpu',
    ...(plan.variablesFile ? ['--variables-file', `${CONTAINER_INPUTS}/variables.json`] : []),
    ...passThrough(plan.flags),
  ];
}

/** Every flag the user gave that the host does not handle, in the order commander stored them. */
function passThrough(flags: RenderFlags): string[] {
  const args: string[] = [];
  for (const [key, value] of Object.entries(flags)) {
    if (HOST_FLAGS.has(key) || value === undefined) continue;
    const flag = `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
    if (value === true) args.push(flag);
    else if (value === false) args.push(`--no-${flag.slice(2)}`);
    else args.push(flag, String(value));
  }
  return args;
}

/** One --mount value; docker reads it as CSV, so a path with a comma or quote is quoted. */
function mount(source: string, target: string, readonly: boolean): string {
  const fields = ['type=bind', `source=${source}`, `target=${target}`, ...(readonly ? ['readonly'] : [])];
  return fields.map((field) => (/[",]/.test(field) ? `"${field.replace(/"/g, '""')}"` : field)).join(',');
}
