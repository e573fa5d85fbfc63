/**
 * Start and follow distributed renders on AWS Lambda from code, with your AWS credentials (the
 * same client `seekframe lambda render` uses), from `@seekframe/aws-lambda/client`.
 *
 * ```ts
 * import { renderOnLambda, waitForRender } from '@seekframe/aws-lambda/client';
 * const target = { functionName: 'seekframe-production-ApiFunction-…', bucket: 'seekframe-production-rendersbucket-…' };
 * const { id } = await renderOnLambda(target, { projectDir: './my-video', request: { variables: { title: 'Hi' } } });
 * const done = await waitForRender(target, id, { onProgress: (p) => console.log(p.stage, p.progress) });
 * ```
 * @module The Lambda client
 */
export {
  renderOnLambda,
  getRenderProgress,
  waitForRender,
  type LambdaTarget,
  type DistributedProgress,
  type CostEstimate,
  type StartedRender,
} from '@seekframe/aws-lambda/client';
