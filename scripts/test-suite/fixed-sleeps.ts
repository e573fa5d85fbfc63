/**
 * Fixed sleeps in a test's source, found by pattern: `setTimeout(resolve, 500)`,
 * `sleep(200)`, `delay(1_000)`, `timers.setTimeout(300)`: a wait for a time, not for an event.
 * Deadlines (`setTimeout(() => controller.abort(), 5000)`) are not counted: they end early when
 * the event comes. Counted: how many, and the milliseconds they name.
 */
export function fixedSleeps(source: string): { count: number; ms: number } {
  const pattern = /\b(?:setTimeout|sleep|delay|wait|pause)\(\s*(?:[A-Za-z_$][\w$]*\s*,\s*)?(\d[\d_]*)\s*[,)]/g;
  let count = 0;
  let ms = 0;
  for (const match of source.matchAll(pattern)) {
    const value = Number(match[1]!.replaceAll('_', ''));
    if (value < 20) continue;
    count++;
    ms += value;
  }
  return { count, ms };
}
