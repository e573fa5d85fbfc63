import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { SeekframeError } from '@seekframe/composition';
import { parseRenderOptions } from '@seekframe/producer';
import { displayPath, resolveProject } from '@seekframe/producer/project-files';
import type { CliContext } from '../cli-context.js';
import { flagName, renderFlagsToOptions, type RenderFlags } from '../commands/render-flags.js';
import { checkDocker } from './check-docker.js';
import { buildDockerArgv } from './docker-argv.js';
import { dockerImage } from './docker-image.js';
import { containerOutputRelay } from './relay-container-output.js';

/**
 * `seekframe render --docker`: validates the flags here (same rules, same messages as a local
 * render), checks that Docker can run the image, then runs the same render in the container and
 * relays its output and exit code.
 */
export async function renderInDocker(dir: string, flags: RenderFlags, ctx: CliContext): Promise<void> {
  const options = parseRenderOptions(await renderFlagsToOptions(dir, flags, ctx.cwd), flagName);
  const project = await resolveProject(options.projectDir);
  const output = path.resolve(ctx.cwd, options.output ?? '');
  const image = dockerImage(ctx.env, ctx.version);
  const status = await checkDocker({ env: ctx.env, image });
  // The mount source must exist, or docker refuses to start (and would create it as root).
  await mkdir(path.dirname(output), { recursive: true });
  const uid = process.getuid?.();
  const gid = process.getgid?.();
  const argv = buildDockerArgv({
    image,
    projectRoot: project.root,
    entry: project.entry,
    output,
    ...(flags.variablesFile ? { variablesFile: path.resolve(ctx.cwd, flags.variablesFile) } : {}),
    ...(uid !== undefined && gid !== undefined ? { user: { uid, gid } } : {}),
    flags,
    env: ctx.env,
  });
  const mapping = { output, outputShown: displayPath(ctx.cwd, output), projectRoot: project.root, outputName: path.basename(output) };
  const stdout = containerOutputRelay(mapping, flags.json === true, (text) => ctx.stdout.write(text));
  const stderr = containerOutputRelay(mapping, false, (text) => ctx.stderr.write(text));
  ctx.exitCode = await new Promise<number>((resolve, reject) => {
    const child = spawn(status.docker, argv, { stdio: ['ignore', 'pipe', 'pipe'], env: ctx.env });
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => stdout.push(chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
    // Ctrl+C reaches docker run, which forwards it to the container (tini passes it to the CLI).
    const interrupt = (): void => void child.kill('SIGINT');
    process.once('SIGINT', interrupt);
    child.on('error', (error) => {
      process.off('SIGINT', interrupt);
      reject(
        new SeekframeError('docker-run-failed', `Could not start ${status.docker}: ${error.message}. Check the Docker installation.`, {
          stage: 'config',
          cause: error,
        }),
      );
    });
    child.on('close', (code) => {
      process.off('SIGINT', interrupt);
      stdout.flush();
      stderr.flush();
      resolve(code ?? 1);
    });
  });
}
