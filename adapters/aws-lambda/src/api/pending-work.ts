/**
 * Work that must finish before a Lambda invocation returns: a Lambda is frozen once its handler
 * has answered, so what the render API hands to `waitUntil` (the runner's start: the request,
 * the project and the Step Functions execution) is awaited by the handler before it returns.
 */
export function pendingWork(): { waitUntil: (promise: Promise<unknown>) => void; settle: () => Promise<void> } {
  const pending = new Set<Promise<unknown>>();
  return {
    waitUntil(promise) {
      const tracked = promise.catch(() => undefined).finally(() => pending.delete(tracked));
      pending.add(tracked);
    },
    async settle() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}
