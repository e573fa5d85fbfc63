import type * as Aws from '@pulumi/aws';
import type * as DockerBuild from '@pulumi/docker-build';
import type { Input, Output } from '@pulumi/pulumi';

/**
 * The Lambda functions that render (plan, renderChunk, assemble; fail with them), declared for
 * sst.config.ts as container-image functions: the image infra/lambda/build-image.sh built on this
 * machine (the `seekframe render --docker` image plus @seekframe/aws-lambda) is pushed to an ECR
 * repository of the stage, and each function runs it with its own command (the handler name).
 * One image for all of them: every chunk renders with the plan's Chromium, ffmpeg and fonts.
 *
 * Typed against the Pulumi SDKs SST runs with (@pulumi/aws, @pulumi/docker-build);
 * infra/lambda/deploy-types/check.sh type-checks this file against them.
 */
export interface RenderFunctionsOptions {
  /** The image built locally, e.g. seekframe/lambda:0.1.0 (what build-image.sh tagged). */
  localImage: string;
  bucket: { arn: Output<string> };
  /** Environment of every function (bucket, cache dir, chunk timeout). */
  environment: Record<string, Input<string>>;
  chunkTimeoutSeconds: number;
}

/**
 * Memory (MB), time limit (s) and /tmp size (MB) of each step. The fail step's limit leaves room
 * for the render.failed webhook: five attempts of at most 10 s with 85 s of backoff between them.
 */
export const RENDER_FUNCTION_SIZES = {
  plan: { memory: 2048, timeout: 300, storage: 2048 },
  renderChunk: { memory: 3008, timeout: 900, storage: 2048 },
  assemble: { memory: 3008, timeout: 900, storage: 10240 },
  fail: { memory: 256, timeout: 180, storage: 512 },
} as const;

export type RenderFunctionName = keyof typeof RENDER_FUNCTION_SIZES;

export function declareRenderFunctions(aws: typeof Aws, dockerbuild: typeof DockerBuild, options: RenderFunctionsOptions) {
  const repository = new aws.ecr.Repository('RenderFunctions', { forceDelete: true, imageTagMutability: 'MUTABLE' });
  const auth = aws.ecr.getAuthorizationTokenOutput({ registryId: repository.registryId });
  // FROM the local image only: everything in it was built by build-image.sh (Docker or podman).
  const image = new dockerbuild.Image('RenderFunctionsImage', {
    context: { location: 'infra/lambda/push' },
    dockerfile: { inline: `FROM ${options.localImage}\n` },
    platforms: ['linux/amd64'],
    push: true,
    tags: [repository.repositoryUrl.apply((url) => `${url}:${options.localImage.split(':').pop() ?? 'latest'}`)],
    registries: [{ address: repository.repositoryUrl, username: auth.userName, password: auth.password }],
  });

  const role = new aws.iam.Role('RenderFunctionsRole', {
    assumeRolePolicy: JSON.stringify({
      Version: '2012-10-17',
      Statement: [{ Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' }],
    }),
  });
  new aws.iam.RolePolicyAttachment('RenderFunctionsLogs', {
    role: role.name,
    policyArn: 'arn:aws:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole',
  });
  new aws.iam.RolePolicy('RenderFunctionsBucket', {
    role: role.id,
    policy: aws.iam.getPolicyDocumentOutput({
      statements: [
        { actions: ['s3:ListBucket'], resources: [options.bucket.arn] },
        {
          actions: [
            's3:GetObject',
            's3:PutObject',
            's3:DeleteObject',
            's3:PutObjectTagging',
            's3:GetObjectTagging',
            's3:AbortMultipartUpload',
          ],
          resources: [options.bucket.arn.apply((arn) => `${arn}/*`)],
        },
      ],
    }).json,
  });

  const fn = (name: RenderFunctionName, id: string) => {
    const size = RENDER_FUNCTION_SIZES[name];
    return new aws.lambda.Function(id, {
      packageType: 'Image',
      imageUri: image.ref,
      imageConfig: { commands: [name] },
      architectures: ['x86_64'],
      role: role.arn,
      memorySize: size.memory,
      timeout: name === 'renderChunk' ? options.chunkTimeoutSeconds : size.timeout,
      ephemeralStorage: { size: size.storage },
      environment: { variables: { ...options.environment } },
    });
  };
  return {
    image,
    repository,
    plan: fn('plan', 'Plan'),
    renderChunk: fn('renderChunk', 'RenderChunk'),
    assemble: fn('assemble', 'Assemble'),
    fail: fn('fail', 'Fail'),
  };
}
