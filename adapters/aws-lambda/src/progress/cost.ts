/**
 * Cost estimate of one distributed render: Lambda GB-seconds and requests plus Step Functions
 * state transitions. An estimate: S3 requests and storage, data transfer and CloudWatch logs are
 * left out, and the prices are the list prices of one region (x86, 2026), overridable.
 */
export interface Pricing {
  region: string;
  usdPerGbSecond: number;
  usdPerRequest: number;
  usdPerTransition: number;
}

export const DEFAULT_PRICING: Pricing = {
  region: 'us-east-1',
  usdPerGbSecond: 0.0000166667,
  usdPerRequest: 0.0000002,
  usdPerTransition: 0.000025,
};

export interface CostEstimate {
  estimatedUsd: number;
  display: string;
  lambdaGbSeconds: number;
  invocations: number;
  sfnTransitions: number;
  pricing: Pricing;
  estimated: true;
  excludes: ['s3', 'data-transfer', 'logs'];
}

export function estimateCost(
  invocations: { memoryMb: number; durationMs: number }[],
  sfnTransitions: number,
  pricing: Pricing = DEFAULT_PRICING,
): CostEstimate {
  // Lambda bills each invocation rounded up to the millisecond.
  const gbSeconds = invocations.reduce((sum, i) => sum + (Math.ceil(i.durationMs) / 1000) * (i.memoryMb / 1024), 0);
  const usd = gbSeconds * pricing.usdPerGbSecond + invocations.length * pricing.usdPerRequest + sfnTransitions * pricing.usdPerTransition;
  return {
    estimatedUsd: round(usd, 6),
    display: `~$${usd < 0.01 ? usd.toFixed(4) : usd.toFixed(2)} (estimate)`,
    lambdaGbSeconds: round(gbSeconds, 3),
    invocations: invocations.length,
    sfnTransitions,
    pricing,
    estimated: true,
    excludes: ['s3', 'data-transfer', 'logs'],
  };
}

/**
 * State transitions of plan -> map -> assemble in a standard workflow: start, each task entry
 * and each retry, the Map state and its iterations, and the end.
 */
export function countTransitions(input: { planAttempts: number; chunkAttempts: number; chunks: number; assembleAttempts: number; failed: boolean }): number {
  return 1 + input.planAttempts + 1 + input.chunks + input.chunkAttempts + input.assembleAttempts + (input.failed ? 2 : 1);
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
