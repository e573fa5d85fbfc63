/// <reference path="./.sst/platform/config.d.ts" />

/**
 * Seekframe on AWS Lambda: distributed renders (plan -> render chunks in parallel -> assemble)
 * orchestrated by Step Functions, one S3 bucket, an API function with a URL.
 *
 * Deploy with `npx sst deploy --stage <name>` (SST v3/v4; the CLI downloads Pulumi on first run,
 * so it cannot run on machines without internet access; see docs/pending/aws-lambda.md).
 * This file is not part of the repository's typecheck: its types (`$config`, `sst.aws.*`,
 * `aws.*`) are generated into .sst/platform by the SST CLI.
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
      providers: { aws: { region: process.env.AWS_REGION ?? 'us-east-1' } },
    };
  },
  async run() {
    const { buildRenderWorkflow, MAP_MAX_CONCURRENCY, SHORT_LIVED_TAG, SHORT_LIVED_DAYS, RENDER_RETENTION_DAYS, RENDERS_PREFIX } = await import(
      './adapters/aws-lambda/src/orchestration/index.ts'
    );

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

    // ffmpeg: the binaries inside @ffmpeg-installer/linux-x64 (a 2018 build) render, join and mix
    // sound (the engine's filter graphs stay within ffmpeg 4.1). To use a newer ffmpeg, attach a
    // layer with a static ffmpeg + ffprobe in bin/ (SEEKFRAME_FFMPEG_LAYER=<layer version ARN>).
    const ffmpegLayer = process.env.SEEKFRAME_FFMPEG_LAYER;
    const common = {
      runtime: 'nodejs20.x' as const,
      architecture: 'x86_64' as const,
      link: [bucket],
      ...(ffmpegLayer ? { layers: [ffmpegLayer] } : {}),
      environment: {
        ...(ffmpegLayer ? { SEEKFRAME_FFMPEG: '/opt/bin/ffmpeg', SEEKFRAME_FFPROBE: '/opt/bin/ffprobe' } : {}),
        SEEKFRAME_BUCKET: bucket.name,
        SEEKFRAME_CACHE_DIR: '/tmp/seekframe-cache',
        SEEKFRAME_RUNTIME_BUNDLE: 'seekframe-runtime.js',
        SEEKFRAME_CHUNK_TIMEOUT_SECONDS: String(chunkTimeoutSeconds),
      },
      copyFiles: [{ from: 'core/runtime/dist/seekframe-runtime.js', to: 'seekframe-runtime.js' }],
      nodejs: {
        // Binaries and data files stay real files in node_modules instead of being bundled.
        install: ['@sparticuz/chromium', '@ffmpeg-installer/linux-x64', '@ffprobe-installer/linux-x64', 'puppeteer-core'],
      },
    };
    const entry = 'adapters/aws-lambda/src/handlers/lambda-entry';

    const plan = new sst.aws.Function('Plan', { ...common, handler: `${entry}.plan`, memory: '2048 MB', timeout: '300 seconds', storage: '2048 MB' });
    const renderChunk = new sst.aws.Function('RenderChunk', {
      ...common,
      handler: `${entry}.renderChunk`,
      memory: '3008 MB',
      timeout: `${chunkTimeoutSeconds} seconds`,
      storage: '2048 MB',
    });
    const assemble = new sst.aws.Function('Assemble', { ...common, handler: `${entry}.assemble`, memory: '3008 MB', timeout: '900 seconds', storage: '10240 MB' });
    const fail = new sst.aws.Function('Fail', { ...common, handler: `${entry}.fail`, memory: '256 MB', timeout: '60 seconds' });

    const workflow = new sst.aws.StepFunctions('RenderWorkflow', {
      definition: buildRenderWorkflow(sst.aws.StepFunctions, {
        functions: { plan, renderChunk, assemble, fail },
        maxConcurrency,
        // A chunk that overruns its function's limit fails as Sandbox.Timedout; this is the backstop.
        timeouts: { plan: 330, renderChunk: chunkTimeoutSeconds + 30, assemble: 930 },
      }),
    });

    const token = new sst.Secret('RenderApiToken', '');
    const api = new sst.aws.Function('Api', {
      ...common,
      handler: `${entry}.api`,
      memory: '512 MB',
      timeout: '30 seconds',
      url: true,
      copyFiles: [...common.copyFiles, { from: process.env.SEEKFRAME_COMPOSITION ?? 'compositions/ui-3d-reveal', to: 'composition' }],
      environment: {
        ...common.environment,
        SEEKFRAME_STATE_MACHINE_ARN: workflow.arn,
        SEEKFRAME_COMPOSITION_DIR: 'composition',
        SEEKFRAME_MAX_CONCURRENCY: String(maxConcurrency),
        SEEKFRAME_ACCOUNT_CONCURRENCY: String(accountConcurrency),
        RENDER_API_TOKEN: token.value,
      },
      permissions: [
        { actions: ['states:StartExecution'], resources: [workflow.arn] },
        // DELETE /api/render/:id stops the render's execution (named after the render id).
        { actions: ['states:StopExecution'], resources: [workflow.arn.apply((arn: string) => `${arn.replace(':stateMachine:', ':execution:')}:*`)] },
      ],
    });

    return { api: api.url, apiFunction: api.name, bucket: bucket.name, stateMachine: workflow.arn };
  },
});
