import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * sst.config.ts cannot be type-checked here (its types come from the SST CLI, which downloads
 * Pulumi). What it declares for the container-image functions lives in
 * infra/lambda/render-functions.ts, typed against the Pulumi SDKs SST deploys with; check.sh
 * installs those SDKs (pinned, into its own folder, from the npm registry) and runs tsc.
 */
const script = fileURLToPath(new URL('../../../infra/lambda/deploy-types/check.sh', import.meta.url));

describe('infra/lambda/render-functions.ts', () => {
  it(
    'type-checks against @pulumi/aws and @pulumi/docker-build',
    async () => {
      const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
        const child = spawn('bash', [script], { stdio: ['ignore', 'pipe', 'pipe'] });
        let text = '';
        child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
        child.on('close', (exit) => resolve({ code: exit, output: text }));
      });
      expect(code, output).toBe(0);
      expect(output).toMatch(/type-checks against @pulumi\/aws 7\.48\.0 and @pulumi\/docker-build 0\.0\.22/);
    },
    15 * 60_000,
  );
});
