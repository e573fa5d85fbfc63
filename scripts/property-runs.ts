import fc from 'fast-check';

/**
 * Runs a fast-check property with a seed it prints first, so any run can be repeated:
 * `SEEKFRAME_FC_SEED=<seed> npx vitest run <file>`. A failing seed found this way becomes a fixed
 * regression case beside the property (each property file keeps them under "found by fuzzing").
 * Run counts stay moderate: these run in the suite, in seconds.
 */
export async function checkProperty<Ts extends [unknown, ...unknown[]]>(
  name: string,
  property: fc.IAsyncPropertyWithHooks<Ts> | fc.IPropertyWithHooks<Ts>,
  numRuns: number,
): Promise<void> {
  const fixed = Number(process.env.SEEKFRAME_FC_SEED);
  const seed = Number.isSafeInteger(fixed) ? fixed : (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;
  console.log(`fast-check "${name}": seed ${seed}, ${numRuns} runs (repeat: SEEKFRAME_FC_SEED=${seed})`);
  await fc.assert(property, { seed, numRuns, endOnFailure: true });
}
