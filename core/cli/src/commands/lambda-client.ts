import { SeekframeError } from '@seekframe/composition';
import type { RenderEvent } from '@seekframe/producer';
import type { JobStatus } from '@seekframe/producer/http';

/**
 * The part of `@seekframe/aws-lambda/client` the CLI uses, typed here so the CLI neither
 * builds against the adapter nor loads the AWS SDK until a `lambda` command runs: the module is
 * imported on demand, and `seekframe` without it still works for everything else.
 */
export interface LambdaProgress {
  id: string;
  status: JobStatus;
  stage: string;
  progress: number;
  framesRendered: number;
  totalFrames: number | null;
  chunks: { total: number | null; done: number; retried: number };
  slowestChunkMs: number | null;
  timeoutRisk: boolean;
  warning: string | null;
  output: { key: string; size: number; frames: number; url?: string } | null;
  error: { code: string; message: string } | null;
  cost: { estimatedUsd: number; display: string; lambdaGbSeconds: number; invocations: number; sfnTransitions: number; estimated: true };
  createdAt: string;
  updatedAt: string;
}

export interface LambdaTarget {
  functionName: string;
  bucket: string;
  region?: string;
  lambda?: unknown;
  s3?: unknown;
}

export type LambdaCliEvent =
  | Extract<RenderEvent, { type: 'stage' | 'progress' | 'warning' }>
  | { type: 'cost'; cost: LambdaProgress['cost']; chunks: LambdaProgress['chunks'] };

interface ClientModule {
  renderOnLambda(
    target: LambdaTarget,
    input: { projectDir: string; request?: Record<string, unknown> },
  ): Promise<{ id: string; status: 'queued' }>;
  getRenderProgress(target: LambdaTarget, id: string): Promise<LambdaProgress>;
  waitForRender(
    target: LambdaTarget,
    id: string,
    options: { intervalMs?: number; onProgress?: (p: LambdaProgress) => void },
  ): Promise<LambdaProgress>;
  createProgressTranslator(): (p: LambdaProgress) => LambdaCliEvent[];
}

interface SdkModules {
  S3Client: new (config: Record<string, unknown>) => unknown;
  LambdaClient: new (config: Record<string, unknown>) => unknown;
}

// A variable keeps TypeScript from resolving the adapter at build time (see above).
const CLIENT_MODULE = '@seekframe/aws-lambda/client';

export async function loadLambdaClient(): Promise<ClientModule> {
  // The SDK warns on every run that its 2027 releases need Node 22; Seekframe pins Node 20 and
  // this SDK release supports it, so the notice is noise in a CLI (set the variable to see it).
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  try {
    return (await import(CLIENT_MODULE)) as ClientModule;
  } catch (error) {
    throw new SeekframeError(
      'bundle-missing',
      `seekframe lambda needs the @seekframe/aws-lambda package (npm install @seekframe/aws-lambda): ${error instanceof Error ? error.message : String(error)}`,
      {
        stage: 'config',
      },
    );
  }
}

/**
 * The deployment to talk to: --function/--bucket/--region, else SEEKFRAME_LAMBDA_FUNCTION,
 * SEEKFRAME_LAMBDA_BUCKET and AWS_REGION. AWS_ENDPOINT_URL_S3 / AWS_ENDPOINT_URL_LAMBDA (the
 * AWS SDK's own variables) are honoured from the command's environment, for local stand-ins.
 */
export async function lambdaTarget(
  flags: { function?: string; bucket?: string; region?: string },
  env: NodeJS.ProcessEnv,
): Promise<LambdaTarget> {
  const functionName = flags.function ?? env.SEEKFRAME_LAMBDA_FUNCTION;
  const bucket = flags.bucket ?? env.SEEKFRAME_LAMBDA_BUCKET;
  const missing = [!functionName && '--function (or SEEKFRAME_LAMBDA_FUNCTION)', !bucket && '--bucket (or SEEKFRAME_LAMBDA_BUCKET)'].filter(
    Boolean,
  );
  if (missing.length) {
    throw new SeekframeError(
      'invalid-argument',
      `seekframe lambda needs ${missing.join(' and ')}: the apiFunction and bucket outputs of \`npx sst deploy\`.`,
      { stage: 'config' },
    );
  }
  const region = flags.region ?? env.AWS_REGION ?? env.AWS_DEFAULT_REGION;
  const target: LambdaTarget = { functionName: functionName!, bucket: bucket!, ...(region ? { region } : {}) };
  if (env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL_LAMBDA) {
    const sdk = await loadSdk();
    const base = { region: region ?? 'us-east-1', ...credentialsFrom(env) };
    if (env.AWS_ENDPOINT_URL_S3) target.s3 = new sdk.S3Client({ ...base, endpoint: env.AWS_ENDPOINT_URL_S3, forcePathStyle: true });
    if (env.AWS_ENDPOINT_URL_LAMBDA)
      target.lambda = new sdk.LambdaClient({ ...base, endpoint: env.AWS_ENDPOINT_URL_LAMBDA, maxAttempts: 1 });
  }
  return target;
}

function credentialsFrom(env: NodeJS.ProcessEnv): Record<string, unknown> {
  return env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
    ? { credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY } }
    : {};
}

const S3_MODULE = '@aws-sdk/client-s3';
const LAMBDA_MODULE = '@aws-sdk/client-lambda';
async function loadSdk(): Promise<SdkModules> {
  const [s3, lambda] = await Promise.all([import(S3_MODULE) as Promise<SdkModules>, import(LAMBDA_MODULE) as Promise<SdkModules>]);
  return { S3Client: s3.S3Client, LambdaClient: lambda.LambdaClient };
}
