import type { ObjectBody } from './ports.js';

/** Any body a port returns, as text. */
export async function readText(body: ObjectBody): Promise<string> {
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array || body instanceof ArrayBuffer) return new TextDecoder().decode(body);
  return new Response(body).text();
}

/** Any body a port returns, as something a Response accepts. */
export function responseBody(body: ObjectBody): BodyInit {
  return body as BodyInit;
}
