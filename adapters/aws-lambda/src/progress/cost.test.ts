import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICING, estimateCost, gbSeconds, PRICE_TABLE, pricingForRegion } from './cost.js';

describe('cost arithmetic', () => {
  it('GB-seconds are memory in GB x duration rounded up to the millisecond', () => {
    expect(gbSeconds({ memoryMb: 1024, durationMs: 1000 })).toBe(1);
    expect(gbSeconds({ memoryMb: 2048, durationMs: 500.2 })).toBeCloseTo(2 * 0.501, 9);
    expect(gbSeconds({ memoryMb: 3008, durationMs: 60_000 })).toBeCloseTo((3008 / 1024) * 60, 9);
  });

  it('sums each function separately and prices GB-seconds, requests and transitions', () => {
    const pricing = { region: 'test-1', usdPerGbSecond: 0.00001, usdPerRequest: 0.000001, usdPerTransition: 0.0001 };
    const cost = estimateCost(
      [
        { function: 'plan', memoryMb: 1024, durationMs: 2000 }, // 2 GB-s
        { function: 'renderChunk', memoryMb: 2048, durationMs: 10_000 }, // 20 GB-s
        { function: 'renderChunk', memoryMb: 2048, durationMs: 5_000 }, // 10 GB-s
        { function: 'assemble', memoryMb: 512, durationMs: 4_000 }, // 2 GB-s
      ],
      8,
      pricing,
    );
    expect(cost.functions).toEqual({
      plan: { invocations: 1, gbSeconds: 2, estimatedUsd: 0.000021 },
      renderChunk: { invocations: 2, gbSeconds: 30, estimatedUsd: 0.000302 },
      assemble: { invocations: 1, gbSeconds: 2, estimatedUsd: 0.000021 },
    });
    expect(cost.lambdaGbSeconds).toBe(34);
    expect(cost.invocations).toBe(4);
    // 34 GB-s x 0.00001 + 4 x 0.000001 + 8 x 0.0001 = 0.00034 + 0.000004 + 0.0008
    expect(cost.estimatedUsd).toBeCloseTo(0.001144, 9);
    expect(cost).toMatchObject({ estimated: true, display: '~$0.0011 (estimate)', pricing });
  });

  it('prices the deployment region from the table, and says when another region stands in', () => {
    expect(pricingForRegion('eu-west-1')).toEqual({ region: 'eu-west-1', ...PRICE_TABLE['eu-west-1'] });
    expect(pricingForRegion(undefined)).toEqual(DEFAULT_PRICING);
    const fallback = pricingForRegion('ap-south-2');
    expect(fallback).toEqual({ ...DEFAULT_PRICING, fallbackFor: 'ap-south-2' });
    expect(estimateCost([{ memoryMb: 1024, durationMs: 1000 }], 3, fallback).display).toMatch(/\(estimate, us-east-1 prices\)$/);
    // us-east-1 list price: 1 GB-s + 1 request + 3 transitions.
    expect(estimateCost([{ memoryMb: 1024, durationMs: 1000 }], 3).estimatedUsd).toBeCloseTo(0.0000166667 + 0.0000002 + 3 * 0.000025, 6);
  });
});
