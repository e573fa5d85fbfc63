/**
 * Reads a request body up to `maxBytes`. A larger body (declared or chunked) is read on and
 * thrown away up to `discardBytes` before the caller answers 413: a server that answers while the
 * client is still sending resets the connection, and the client then never sees the 413.
 * Beyond `discardBytes` it stops reading (the caller answers and closes the connection).
 */
export async function readBoundedBody(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  discardBytes: number,
): Promise<{ text: string } | { tooLarge: true; drained: boolean }> {
  if (!body) return { text: '' };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > discardBytes) {
      await reader.cancel().catch(() => undefined);
      return { tooLarge: true, drained: false };
    }
    if (total <= maxBytes) chunks.push(value);
    else chunks.length = 0;
  }
  if (total > maxBytes) return { tooLarge: true, drained: true };
  return { text: Buffer.concat(chunks).toString('utf8') };
}
