import { SeekframeError } from '@seekframe/composition';
import type { DockerStatus } from '../docker/check-docker.js';
import type { CheckResult } from './check-result.js';
import { describeVersions } from './check-render-versions.js';

/**
 * Docker is needed only for `render --docker`: not installed is fine (ok); installed but
 * stopped, or without the image, is a warning with the fix.
 */
export function checkDockerUsable(status: DockerStatus | Error): CheckResult {
  const base = { id: 'docker', title: 'Docker' };
  if (!(status instanceof Error)) {
    const holds = describeVersions(status.imageVersions ?? {});
    return {
      ...base,
      status: 'ok',
      summary: `engine at ${status.endpoint}${status.serverVersion ? ` (${status.serverVersion})` : ''}, image ${status.image} present${holds ? ` (${holds})` : ''}: render --docker works`,
      details: { ...status },
    };
  }
  if (status instanceof SeekframeError && status.code === 'docker-not-found') {
    return { ...base, status: 'ok', summary: 'not installed (only render --docker needs it)', fix: status.message };
  }
  return {
    ...base,
    status: 'warn',
    summary: status instanceof SeekframeError && status.code === 'docker-image-missing' ? 'image missing' : 'engine not reachable',
    fix: status.message,
  };
}
