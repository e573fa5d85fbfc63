/// <reference path="./.sst/platform/config.d.ts" />

/**
 * Seekframe on AWS Lambda: distributed renders (plan -> render chunks in parallel -> assemble)
 * orchestrated by Step Functions, one S3 bucket, an API function with a URL.
 *
 * The functions that render run one container image: `bash infra/lambda/build-image.sh` builds
 * it first (the `seekframe render --docker` image plus @seekframe/aws-lambda: Debian's
 * chromium-headless-shell, ffmpeg 5.1 and fonts), then `npx sst deploy --stage <name>` pushes it
 * to ECR (infra/lambda/render-functions.ts). SST v3/v4; the CLI downloads Pulumi on first run,
 * so it cannot run on machines without internet access.
 * This file is not part of the repository's typecheck: its types (`$config`, `sst.aws.*`,
 * `aws.*`) are generated into .sst/platform by the SST CLI. The image functions' part is typed
 * against the Pulumi SDKs by infra/lambda/deploy-types/check.sh.
 *
 * The state machine is built by buildRenderWorkflow (adapters/aws-lambda/src/orchestration),
 * a pure function over SST's own building blocks; its test snapshots the same definition.
 */
export default $config({
  app(input) {
    return {
      name: 'seekframe',
      home: 'aws',
      removal: input?.stage === 'production' ? 'retain' : 'remove',
      providers: { aws: { region: process.env.AWS_REGION ?? 'us-east-1' }, 'docker-build': '0.0.22' },
    };
  },
  async run() {
    const { buildRenderWorkflow, MAP_MAX_CONCURRENCY, SHORT_LIVED_TAG, SHORT_LIVED_DAYS, RENDER_RETENTION_DAYS, RENDERS_PREFIX } =
      await import('./adapters/aws-lambda/src/orchestration/index.ts');
    const { declareRenderFunctions } = await import('./infra/lambda/render-functions.ts');
    const dockerbuild = await import('@pulumi/docker-build');
    const { readFileSync } = await import('node:fs');
    const { version } = JSON.parse(readFileSync('adapters/aws-lambda/package.json', 'utf8')) as { version: string };

    // Account concurrency: new accounts often have 10. The planner never makes more chunks than this.
    const accountConcurrency = Number(process.env.SEEKFRAME_ACCOUNT_CONCURRENCY ?? 10);
    const maxConcurrency = Math.min(MAP_MAX_CONCURRENCY, Number(process.env.SEEKFRAME_MAX_CONCURRENCY ?? accountConcurrency));
    const chunkTimeoutSeconds = 900;

    const bucket = new sst.aws.Bucket('Renders', { cors: false });
    // Chunks and progress objects are scaffolding: the handlers tag them, and they go after
    // 3 days. Everything else of a render (request, plan, errors, status, out.mp4) after 30.
    new aws.s3.BucketLifecycleConfigurationV2('RendersLifecycle', {
      bucket: bucket.name,
      rules: [
        {
          id: 'render-scaffolding',
          status: 'Enabled',
          filter: { tag: { key: SHORT_LIVED_TAG.key, value: SHORT_LIVED_TAG.value } },
          expiration: { days: SHORT_LIVED_DAYS },
        },
        {
          id: 'renders',
          status: 'Enabled',
          filter: { prefix: RENDERS_PREFIX },
          expiration: { days: RENDER_RETENTION_DAYS },
          abortIncompleteMultipartUpload: { daysAfterInitiation: 1 },
        },
      ],
    });

    // Signs webhook deliveries (`npx sst secret set RenderWebhookSecret <secret>`); empty = webhooks
    // refused at POST. Every function gets it: the step functions send the render's events.
    const webhookSecret = new sst.Secret('RenderWebhookSecret', '');
    const environment = {
      RENDER_WEBHOOK_SECRET: webhookSecret.value,
      SEEKFRAME_BUCKET: bucket.name,
      SEEKFRAME_CACHE_DIR: '/tmp/seekframe-cache',
      SEEKFRAME_CHUNK_TIMEOUT_SECONDS: String(chunkTimeoutSeconds),
    };
    // Plan, RenderChunk, Assemble and Fail: the image's Chromium and ffmpeg, one image for all.
    const { plan, renderChunk, assemble, fail } = declareRenderFunctions(aws, dockerbuild, {
      localImage: process.env.SEEKFRAME_LAMBDA_IMAGE ?? `seekframe/lambda:${version}`,
      bucket,
      environment,
      chunkTimeoutSeconds,
    });

    const workflow = new sst.aws.StepFunctions('RenderWorkflow', {
      definition: buildRenderWorkflow(sst.aws.StepFunctions, {
        functions: { plan: plan.arn, renderChunk: renderChunk.arn, assemble: assemble.arn, fail: fail.arn },
        maxConcurrency,
        // A chunk that overruns its function's limit fails as Sandbox.Timedout; this is the backstop.
        timeouts: { plan: 330, renderChunk: chunkTimeoutSeconds + 30, assemble: 930 },
      }),
    });

    const token = new sst.Secret('RenderApiToken', '');
    // The API validates and starts renders; it runs no browser and no ffmpeg, so it stays a small
    // Node.js function with a URL.
    const api = new sst.aws.Function('Api', {
      runtime: 'nodejs20.x',
      architecture: 'x86_64',
      link: [bucket],
      handler: 'adapters/aws-lambda/src/handlers/lambda-entry.api',
      memory: '512 MB',
      timeout: '30 seconds',
      url: true,
      nodejs: { install: ['puppeteer-core'] },
      copyFiles: [
        { from: 'core/runtime/dist/seekframe-runtime.js', to: 'seekframe-runtime.js' },
        { from: process.env.SEEKFRAME_COMPOSITION ?? 'compositions/ui-3d-reveal', to: 'composition' },
      ],
      environment: {
        ...environment,
        SEEKFRAME_RUNTIME_BUNDLE: 'seekframe-runtime.js',
        SEEKFRAME_STATE_MACHINE_ARN: workflow.arn,
        // DELETE /api/render/:id has the fail function announce the cancel to the render's webhook.
        SEEKFRAME_FAIL_FUNCTION: fail.name,
        SEEKFRAME_COMPOSITION_DIR: 'composition',
        SEEKFRAME_MAX_CONCURRENCY: String(maxConcurrency),
        SEEKFRAME_ACCOUNT_CONCURRENCY: String(accountConcurrency),
        RENDER_API_TOKEN: token.value,
        // A frame cap per render (`RENDER_MAX_FRAMES=36000 npx sst deploy`); empty = none.
        RENDER_MAX_FRAMES: process.env.RENDER_MAX_FRAMES ?? '',
      },
      permissions: [
        { actions: ['states:StartExecution'], resources: [workflow.arn] },
        // DELETE /api/render/:id stops the render's execution (named after the render id).
        {
          actions: ['states:StopExecution'],
          resources: [workflow.arn.apply((arn: string) => `${arn.replace(':stateMachine:', ':execution:')}:*`)],
        },
        // ...and invokes the fail function (asynchronously) to send the render's render.failed.
        { actions: ['lambda:InvokeFunction'], resources: [fail.arn] },
      ],
    });

    return { api: api.url, apiFunction: api.name, bucket: bucket.name, stateMachine: workflow.arn };
  },
});
