/**
 * Ctrl-C during a render or a batch: the first press aborts (browsers and ffmpeg stop, temp output
 * is removed, a batch marks its rows); a second press exits at once. SIGTERM (kill, timeout,
 * systemd, a container stop) does the same, so a stopped render cleans up like an interrupted one.
 * Returns the unsubscribe.
 */
export function abortOnSigint(controller: AbortController): () => void {
  const handlers = (['SIGINT', 'SIGTERM'] as const).map((signal) => {
    const handler = (): void => {
      if (controller.signal.aborted) process.exit(signal === 'SIGINT' ? 130 : 143);
      controller.abort(new Error(signal === 'SIGINT' ? 'interrupted (Ctrl-C)' : 'stopped (SIGTERM)'));
    };
    process.on(signal, handler);
    return [signal, handler] as const;
  });
  return () => {
    for (const [signal, handler] of handlers) process.off(signal, handler);
  };
}
