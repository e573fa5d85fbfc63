/** Polls `check` every 250 ms until it holds; fails naming `what` after `ms` (a bound on waiting, not a timing claim). */
export async function until(check: () => Promise<boolean>, what: string, ms = 120_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
