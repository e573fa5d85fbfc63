/** Polls `check` every 50 ms until it holds; fails naming `what` after `ms` (a bound for a loaded machine, never a measure). */
export async function until(check: () => boolean, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
