import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { createCheckedLookup, type Resolver } from '../network/fetch-public.js';
import {
  AddressRefusedError,
  assertPublicUrl,
  isLoopbackAddress,
  isPrivateAddress,
  parsePublicUrl,
  refusedAddress,
} from '../network/private-address.js';
import type { WebhookSender } from './deliver-webhook.js';

export interface WebhookAddressPolicy {
  /**
   * Lets deliveries reach 127.0.0.0/8 and ::1 (never other private ranges): the local-testing
   * opt-in `RENDER_WEBHOOK_ALLOW_LOOPBACK=true`, for a receiver on the same machine.
   */
  allowLoopback?: boolean;
  /** Name resolution; tests answer without DNS. */
  resolver?: Resolver;
}

/** The address rule of webhooks: the media rule (public only), with loopback when opted in. */
function blockedBy(policy: WebhookAddressPolicy): (address: string) => boolean {
  return policy.allowLoopback ? (address) => isPrivateAddress(address) && !isLoopbackAddress(address) : isPrivateAddress;
}

/**
 * Refuses, before a render is accepted, a webhook URL whose host is or resolves to a loopback,
 * private, link-local or special address (the same rule as a render's remote media). Throws an
 * AddressRefusedError whose message is a sentence for the user.
 */
export async function checkWebhookUrl(url: string, policy: WebhookAddressPolicy = {}): Promise<void> {
  try {
    await assertPublicUrl(url, blockedBy(policy), policy.resolver);
  } catch (error) {
    if (error instanceof AddressRefusedError) throw error;
    // A name that does not resolve now will not be reached later either.
    throw new AddressRefusedError(
      `its host ${safeHost(url)} could not be resolved (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
}

function safeHost(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return 'of the URL';
  }
}

/**
 * Posts deliveries from Node to public addresses only: the connection goes through the same
 * checked lookup as a render's remote media (the host is resolved once, and refused when any
 * answer is private), an IP literal is checked before a socket opens, and redirects are never
 * followed (the 3xx is the answer). A refused address is not retried.
 */
export function createPublicWebhookSender(policy: WebhookAddressPolicy = {}): WebhookSender {
  const isBlocked = blockedBy(policy);
  const lookup = createCheckedLookup(policy.resolver, isBlocked);
  return (post) =>
    new Promise((resolve, reject) => {
      const fail = (error: Error): void =>
        reject(error instanceof AddressRefusedError ? Object.assign(new Error(`refused: ${error.message}`), { retryable: false }) : error);
      let parsed: URL;
      try {
        parsed = parsePublicUrl(post.url);
        const literal = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
        if (isIP(literal) && isBlocked(literal)) throw refusedAddress(parsed.hostname, literal);
      } catch (error) {
        fail(error as Error);
        return;
      }
      const request = parsed.protocol === 'https:' ? httpsRequest : httpRequest;
      const headers = { ...post.headers, 'content-length': String(Buffer.byteLength(post.body)) };
      // agent: false: a fresh connection from the checked lookup, never a pooled socket.
      const req = request(
        parsed,
        { method: 'POST', lookup, agent: false, headers, signal: AbortSignal.timeout(post.timeoutMs) },
        (response) => {
          response.resume();
          resolve({ status: response.statusCode ?? 0 });
        },
      );
      req.once('error', (error: NodeJS.ErrnoException) => {
        if (error.name === 'AbortError' || error.name === 'TimeoutError') fail(new Error(`no answer within ${post.timeoutMs} ms`));
        else if (error instanceof AddressRefusedError) fail(error);
        else fail(new Error(`the request failed: ${error.code ?? error.message}`));
      });
      req.end(post.body);
    });
}
