/**
 * The page's real timer functions, captured before the virtual clock replaces them. The runtime
 * uses these for its own waits (macrotask after load, timeouts); authors get the virtual ones.
 */
export const realSetTimeout: typeof setTimeout = window.setTimeout.bind(window);
export const RealDate: DateConstructor = window.Date;

/** Resolves after the current macrotask, giving already-queued author tasks their turn. */
export function nextMacrotask(): Promise<void> {
  return new Promise((resolve) => realSetTimeout(resolve, 0));
}
