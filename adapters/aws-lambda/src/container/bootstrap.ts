import { reportInitError, serveInvocations, type Handler } from './runtime-api.js';

/**
 * Entry point of the Lambda container image (infra/lambda/Dockerfile): `node bootstrap.js <handler>`
 * with the handler named by the image's CMD, which each function sets (ImageConfig.Command in
 * sst.config.ts): plan, renderChunk, assemble, fail or api. Chromium and ffmpeg are the image's
 * own (the render image's Debian packages), never downloaded or unpacked at run time.
 */
const HANDLERS = ['plan', 'renderChunk', 'assemble', 'fail', 'api'] as const;

async function main(): Promise<void> {
  const api = process.env.AWS_LAMBDA_RUNTIME_API;
  const name = process.argv[2] ?? process.env._HANDLER ?? '';
  if (!api) {
    console.error('bootstrap: AWS_LAMBDA_RUNTIME_API is not set; this image runs as a Lambda function (or under a Runtime API stand-in).');
    process.exit(2);
  }
  let handler: Handler;
  try {
    if (!(HANDLERS as readonly string[]).includes(name))
      throw new Error(`Unknown handler "${name}": the image's command must be one of ${HANDLERS.join(', ')}.`);
    const entry = (await import('../handlers/lambda-entry.js')) as unknown as Record<string, Handler>;
    handler = entry[name]!;
  } catch (error) {
    await reportInitError(api, error);
    process.exit(1);
  }
  await serveInvocations(handler, { api });
}

void main();
