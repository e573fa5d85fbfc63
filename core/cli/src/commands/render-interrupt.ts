/**
 * Ctrl-C during a render or a batch: the first press aborts (browsers and ffmpeg stop, temp output
 * is removed, a batch marks its rows); a second press exits at once. Returns the unsubscribe.
 */
export function abortOnSigint(controller: AbortController): () => void {
  const onSigint = (): void => {
    if (controller.signal.aborted) process.exit(130);
    controller.abort(new Error('interrupted (Ctrl-C)'));
  };
  process.on('SIGINT', onSigint);
  return () => process.off('SIGINT', onSigint);
}
