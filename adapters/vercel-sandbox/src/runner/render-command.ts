import { jobOutput, stillFlags, type RunnerJob } from '@seekframe/render-api';

/** Where one job's files live inside the sandbox (relative to its working folder). */
export interface JobPaths {
  dir: string;
  project: string;
  variables: string;
  output: string;
}

export function jobPaths(job: Pick<RunnerJob, 'id' | 'request'>): JobPaths {
  // The id comes from the API (a UUID); keep it to safe characters anyway: it becomes a path.
  const dir = `jobs/${job.id.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  return {
    dir,
    project: `${dir}/project`,
    variables: `${dir}/variables.json`,
    output: `${dir}/out.${jobOutput(job.request).extension}`,
  };
}

/**
 * The `seekframe render` arguments for a job: JSON progress lines, `--workers auto` (the sandbox
 * has 4 vCPUs), software rendering (no GPU in a sandbox), the network sandbox (a page rendered
 * for a request is untrusted: it reaches only its own project and public assets, never the
 * sandbox's own services), and the API's limits enforced by the renderer itself (it cancels
 * itself with `render-timeout` past the wall time).
 */
export function renderArgs(job: RunnerJob, paths: JobPaths): string[] {
  const { still } = job.request;
  // A still is `seekframe still` (the frame's PNG, one browser); a video `seekframe render`.
  const command = still
    ? ['still', paths.project, '--output', paths.output, ...stillFlags(still), '--json']
    : [
        'render',
        paths.project,
        '--output',
        paths.output,
        '--format',
        job.request.format,
        '--json',
        '--workers',
        'auto',
        '--no-browser-gpu',
      ];
  const args = [
    ...command,
    '--network',
    'sandboxed',
    '--variables-file',
    paths.variables,
    '--strict-variables',
    '--max-frames',
    String(job.limits.maxFrames),
    '--max-render-seconds',
    String(job.limits.maxRenderSeconds),
    '--max-pixels',
    String(job.limits.maxPixels),
  ];
  if (job.limits.maxMemoryMB !== undefined) args.push('--max-memory', String(job.limits.maxMemoryMB));
  if (job.request.quality && !still) args.push('--quality', job.request.quality);
  if (job.request.fps !== undefined) args.push('--fps', String(job.request.fps));
  if (job.request.frames) args.push('--frames', `${job.request.frames.start}-${job.request.frames.end}`);
  return args;
}
