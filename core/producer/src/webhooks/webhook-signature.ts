import { SeekframeError } from '@seekframe/composition';
import type { WebhookEvent } from './webhook-events.js';

/**
 * How a delivery proves it came from this deployment: `Seekframe-Signature: t=<unix seconds>,v1=<hex>`
 * where the hex is HMAC-SHA256(secret, `<t>.<raw body>`). The timestamp is signed with the body,
 * so an old delivery replayed later fails the tolerance check, and a changed body fails the MAC.
 * Web Crypto only: this file loads in Node, Workers, Deno and browsers alike.
 */
export const SIGNATURE_HEADER = 'Seekframe-Signature';
/** The event id (`evt_...`): the same on every retry of one event, so receivers can skip repeats. */
export const WEBHOOK_ID_HEADER = 'Seekframe-Webhook-Id';
/** The event type (`render.completed`...), to route before parsing the body. */
export const WEBHOOK_EVENT_HEADER = 'Seekframe-Event';
/** Default age, in seconds, past which `verifyWebhook` refuses a delivery (either side of now). */
export const DEFAULT_TOLERANCE_SECONDS = 300;

const encoder = new TextEncoder();

async function hmacHex(secret: string, message: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(message)));
  return Array.from(mac, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The `Seekframe-Signature` value for `body` sent at `timestamp` (unix seconds). */
export async function signWebhook(input: { body: string; secret: string; timestamp: number }): Promise<string> {
  return `t=${input.timestamp},v1=${await hmacHex(input.secret, `${input.timestamp}.${input.body}`)}`;
}

/** Compares two strings in time that depends only on their length (no early exit on a mismatch). */
function sameString(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (key.toLowerCase() === wanted) return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

export type WebhookRefusal =
  | 'missing-signature'
  | 'malformed-signature'
  | 'timestamp-out-of-tolerance'
  | 'signature-mismatch'
  /** The receiver was given no secret (empty or blank): nothing can be proven with it. */
  | 'missing-secret'
  /** The signature matched, but the body is not a JSON object: not an event this deployment sent. */
  | 'invalid-body';

function refuse(reason: WebhookRefusal, message: string): SeekframeError {
  return new SeekframeError('webhook-signature-invalid', message, { stage: 'config', details: { reason } });
}

export interface VerifyWebhookInput {
  /** The raw request body, exactly as received (a re-serialised object will not match). */
  body: string | Uint8Array | ArrayBuffer;
  /** The request's headers (a `Headers`, or Node's `req.headers`). */
  headers: WebhookHeaders;
  /** The deployment's `RENDER_WEBHOOK_SECRET`. */
  secret: string;
  /** Oldest (and furthest in the future) a delivery may be; default 300 s. */
  toleranceSeconds?: number;
  /**
   * The receiver's clock, for tests: **milliseconds** since the epoch, as `Date.now()` answers
   * (or a `Date`). The header's `t` is in seconds; the comparison converts. A number below
   * 100000000000 (1973 in milliseconds, year 5138 in seconds) is refused as a caller mistake
   * (a seconds value) with `invalid-options`, instead of failing every delivery as too old.
   */
  now?: number | Date;
}

/** `now` below this is taken for seconds passed by mistake (Date.now() has been past it since 1973). */
const SMALLEST_NOW_MS = 100_000_000_000;

function nowMilliseconds(now: number | Date | undefined): number {
  if (now === undefined) return Date.now();
  const ms = now instanceof Date ? now.getTime() : now;
  if (!Number.isFinite(ms) || ms < SMALLEST_NOW_MS) {
    throw new SeekframeError(
      'invalid-options',
      `verifyWebhook's \`now\` is milliseconds since the epoch (Date.now() or a Date); got ${String(now)}, which looks like seconds: pass now * 1000, or leave it out to use the clock.`,
      { stage: 'config', details: { field: 'now' } },
    );
  }
  return ms;
}

/**
 * Checks a delivery and answers its event, or throws `webhook-signature-invalid` (a
 * SeekframeError; `details.reason` says why). Steps: read `t` and every `v1` from
 * `Seekframe-Signature`, refuse a `t` more than the tolerance away from now, compute
 * HMAC-SHA256(secret, `<t>.<body>`) and accept when it equals one of the `v1` values.
 */
export async function verifyWebhook(input: VerifyWebhookInput): Promise<WebhookEvent> {
  // Checked first: Web Crypto refuses an empty HMAC key with its own DOMException, and a blank
  // one (which no deployment accepts as RENDER_WEBHOOK_SECRET) could never match.
  if (typeof input.secret !== 'string' || input.secret.trim() === '') {
    throw refuse(
      'missing-secret',
      "verifyWebhook was given no secret: pass the deployment's RENDER_WEBHOOK_SECRET (is it set in the receiver's environment?).",
    );
  }
  const raw = header(input.headers, SIGNATURE_HEADER);
  if (!raw)
    throw refuse('missing-signature', `The delivery has no ${SIGNATURE_HEADER} header; it did not come from a Seekframe deployment.`);
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of raw.split(',')) {
    const [key, value] = part.trim().split('=', 2) as [string, string | undefined];
    if (key === 't' && value && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && value && /^[0-9a-f]{64}$/.test(value)) signatures.push(value);
  }
  if (timestamp === undefined || signatures.length === 0) {
    throw refuse(
      'malformed-signature',
      `${SIGNATURE_HEADER} must look like "t=<unix seconds>,v1=<64 hex digits>"; got "${raw.slice(0, 120)}".`,
    );
  }
  const tolerance = input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const nowSeconds = Math.floor(nowMilliseconds(input.now) / 1000);
  if (Math.abs(nowSeconds - timestamp) > tolerance) {
    throw refuse(
      'timestamp-out-of-tolerance',
      `The delivery was signed at ${timestamp}, ${nowSeconds - timestamp} s from now, outside the ${tolerance} s tolerance: a replay, or a wrong clock on the receiver.`,
    );
  }
  const body = typeof input.body === 'string' ? input.body : new TextDecoder().decode(input.body);
  const expected = await hmacHex(input.secret, `${timestamp}.${body}`);
  if (!signatures.some((signature) => sameString(signature, expected))) {
    throw refuse(
      'signature-mismatch',
      'The signature does not match the body: the body was changed, or the receiver uses another secret than RENDER_WEBHOOK_SECRET.',
    );
  }
  return parseEvent(body);
}

/** A signed body that is not a JSON object did not come from a Seekframe deployment's sender. */
function parseEvent(body: string): WebhookEvent {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw refuse(
      'invalid-body',
      `The signature matches, but the body is not a JSON event object (it starts with ${JSON.stringify(body.slice(0, 40))}): a Seekframe deployment sends only JSON events; check what posts to this receiver with this secret.`,
    );
  }
  return parsed as WebhookEvent;
}
