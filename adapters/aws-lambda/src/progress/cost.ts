/**
 * Cost estimate of one distributed render: Lambda GB-seconds (memory x billed duration of every
 * invocation, failed attempts included) and requests, plus Step Functions state transitions, at
 * the list prices of the deployment's region. An estimate: S3 requests and storage, data
 * transfer, CloudWatch logs, the free tier and volume discounts are left out.
 */
export interface Pricing {
  region: string;
  usdPerGbSecond: number;
  usdPerRequest: number;
  usdPerTransition: number;
  /** Set when the region is not in PRICE_TABLE and another region's prices stand in. */
  fallbackFor?: string;
}

/**
 * List prices per region: Lambda on x86 (the first duration tier, up to 6 billion GB-s a month)
 * and Step Functions standard workflows. Source: https://aws.amazon.com/lambda/pricing/ and
 * https://aws.amazon.com/step-functions/pricing/, as listed in 2025 (written down 2026-11-26).
 * Only regions whose three prices we have checked are here; the others fall back to us-east-1's,
 * and the estimate says so (`pricing.fallbackFor`). Prices change: check the pages for your region.
 */
export const PRICE_TABLE: Readonly<Record<string, Omit<Pricing, 'region' | 'fallbackFor'>>> = {
  'us-east-1': { usdPerGbSecond: 0.0000166667, usdPerRequest: 0.0000002, usdPerTransition: 0.000025 },
  'us-east-2': { usdPerGbSecond: 0.0000166667, usdPerRequest: 0.0000002, usdPerTransition: 0.000025 },
  'us-west-2': { usdPerGbSecond: 0.0000166667, usdPerRequest: 0.0000002, usdPerTransition: 0.000025 },
  'eu-west-1': { usdPerGbSecond: 0.0000166667, usdPerRequest: 0.0000002, usdPerTransition: 0.000025 },
};

export const FALLBACK_REGION = 'us-east-1';
export const DEFAULT_PRICING: Pricing = { region: FALLBACK_REGION, ...PRICE_TABLE[FALLBACK_REGION]! };

/** The prices of `region` (AWS_REGION), or us-east-1's marked as a stand-in. */
export function pricingForRegion(region: string | undefined): Pricing {
  const name = region?.trim() || FALLBACK_REGION;
  const prices = PRICE_TABLE[name];
  if (prices) return { region: name, ...prices };
  return { ...DEFAULT_PRICING, fallbackFor: name };
}

/** The three functions a render runs (the API function's own calls are not counted). */
export type RenderFunction = 'plan' | 'renderChunk' | 'assemble';

export interface FunctionCost {
  invocations: number;
  /** Memory (GB) x billed duration (s), summed over the invocations. */
  gbSeconds: number;
  estimatedUsd: number;
}

export interface CostEstimate {
  estimatedUsd: number;
  display: string;
  lambdaGbSeconds: number;
  invocations: number;
  sfnTransitions: number;
  /** GB-seconds, invocations and dollars of each function. */
  functions: Record<RenderFunction, FunctionCost>;
  pricing: Pricing;
  estimated: true;
  excludes: ['s3', 'data-transfer', 'logs', 'free-tier'];
}

export interface BilledInvocation {
  memoryMb: number;
  durationMs: number;
  /** Which function ran it; unnamed invocations count as renderChunk. */
  function?: RenderFunction;
}

/** Lambda bills each invocation's duration rounded up to the millisecond, at its configured memory. */
export function gbSeconds(invocation: { memoryMb: number; durationMs: number }): number {
  return (Math.ceil(invocation.durationMs) / 1000) * (invocation.memoryMb / 1024);
}

export function estimateCost(invocations: BilledInvocation[], sfnTransitions: number, pricing: Pricing = DEFAULT_PRICING): CostEstimate {
  const functions: Record<RenderFunction, FunctionCost> = {
    plan: { invocations: 0, gbSeconds: 0, estimatedUsd: 0 },
    renderChunk: { invocations: 0, gbSeconds: 0, estimatedUsd: 0 },
    assemble: { invocations: 0, gbSeconds: 0, estimatedUsd: 0 },
  };
  for (const invocation of invocations) {
    const entry = functions[invocation.function ?? 'renderChunk'];
    entry.invocations += 1;
    entry.gbSeconds += gbSeconds(invocation);
  }
  let lambdaUsd = 0;
  let totalGbSeconds = 0;
  for (const entry of Object.values(functions)) {
    const usd = entry.gbSeconds * pricing.usdPerGbSecond + entry.invocations * pricing.usdPerRequest;
    lambdaUsd += usd;
    totalGbSeconds += entry.gbSeconds;
    entry.estimatedUsd = round(usd, 6);
    entry.gbSeconds = round(entry.gbSeconds, 3);
  }
  const usd = lambdaUsd + sfnTransitions * pricing.usdPerTransition;
  return {
    estimatedUsd: round(usd, 6),
    display: `~$${usd < 0.01 ? usd.toFixed(4) : usd.toFixed(2)} (estimate${pricing.fallbackFor ? `, ${pricing.region} prices` : ''})`,
    lambdaGbSeconds: round(totalGbSeconds, 3),
    invocations: invocations.length,
    sfnTransitions,
    functions,
    pricing,
    estimated: true,
    excludes: ['s3', 'data-transfer', 'logs', 'free-tier'],
  };
}

/**
 * State transitions of plan -> map -> assemble in a standard workflow: start, each task entry
 * and each retry, the Map state and its iterations, and the end.
 */
export function countTransitions(input: {
  planAttempts: number;
  chunkAttempts: number;
  chunks: number;
  assembleAttempts: number;
  failed: boolean;
}): number {
  return 1 + input.planAttempts + 1 + input.chunks + input.chunkAttempts + input.assembleAttempts + (input.failed ? 2 : 1);
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
