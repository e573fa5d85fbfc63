import { z } from 'zod';

/** Longest webhook URL accepted; a longer one is a mistake, not an address. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;
/** Bytes of `customData` (as JSON): it rides along in every delivery, so it stays small. */
export const MAX_WEBHOOK_CUSTOM_DATA_BYTES = 4096;

/**
 * `webhook` in the body of `POST /api/render`: where the server posts the render's events, and
 * any JSON the caller wants back in each of them (an order id, a user id). Only the shape is
 * checked here; whether the address may be reached is the deployment's check (public addresses
 * only), made before the render is accepted.
 */
export const WebhookRequestSchema = z.strictObject(
  {
    url: z
      .string({ error: 'must be the http(s) URL of your receiver, like "https://example.com/hooks/seekframe"' })
      .max(MAX_WEBHOOK_URL_LENGTH, `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`)
      .refine((value) => {
        const url = parseUrl(value);
        return url?.protocol === 'https:' || url?.protocol === 'http:';
      }, 'must be an absolute http(s) URL, like "https://example.com/hooks/seekframe"')
      .refine(
        (value) => !parseUrl(value)?.username && !parseUrl(value)?.password,
        'must not carry a user name or password; the signature proves who sent a delivery',
      )
      .describe('The http(s) URL of your receiver; the deployment posts only to public addresses.'),
    customData: z
      .unknown()
      .optional()
      .refine(
        (value) => value === undefined || new TextEncoder().encode(JSON.stringify(value)).length <= MAX_WEBHOOK_CUSTOM_DATA_BYTES,
        `must be at most ${MAX_WEBHOOK_CUSTOM_DATA_BYTES} bytes as JSON`,
      )
      .describe(`Any JSON (at most ${MAX_WEBHOOK_CUSTOM_DATA_BYTES} bytes) sent back in every delivery: an order id, a user id.`),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `unknown field(s) ${issue.keys.join(', ')}; allowed: url, customData`
        : issue.code === 'invalid_type'
          ? 'must be an object like {"url":"https://example.com/hooks/seekframe"}'
          : undefined,
  },
);

function parseUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

export type WebhookRequest = z.output<typeof WebhookRequestSchema>;
