/**
 * Compares a presented token with the expected one without leaking, through timing, how many
 * leading bytes match: both are hashed with SHA-256 (WebCrypto, so this runs in Workers too)
 * and the two fixed-length digests are compared with a loop that always visits every byte.
 */
export async function constantTimeEqual(presented: string, expected: string): Promise<boolean> {
  const encoder = new TextEncoder();
  const [a, b] = await Promise.all([
    crypto.subtle.digest('SHA-256', encoder.encode(presented)),
    crypto.subtle.digest('SHA-256', encoder.encode(expected)),
  ]);
  const x = new Uint8Array(a);
  const y = new Uint8Array(b);
  let difference = 0;
  for (let i = 0; i < x.length; i++) difference |= x[i]! ^ y[i]!;
  return difference === 0;
}

/** SHA-256 of a string as lower-case hex (Idempotency-Key body hashes). */
export async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
