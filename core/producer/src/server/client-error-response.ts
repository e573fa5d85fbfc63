import { randomUUID } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import type { Duplex } from 'node:stream';
import type { ErrorCode } from '@seekframe/composition';

/** The request line past this is a URL that is too long (414), not headers (431). */
const MAX_REQUEST_LINE_BYTES = 8 * 1024;
/** After answering, the rest of what the client sends is read and dropped up to this much, so it reads the answer instead of a reset. */
const DRAIN_BYTES = 4 * 1024 * 1024;
const DRAIN_MS = 5_000;

const answered = new WeakSet<Duplex>();

/**
 * Answers a request Node's HTTP parser refused (before any route ran) with the servers' JSON
 * error shape: 414 `url-too-long` when the request line alone overflowed, 431
 * `headers-too-large` for too many header bytes, 408 for a request that timed out, 400
 * `bad-request` for anything else it could not parse. Then the connection closes; what the
 * client still sends is read and dropped first (up to 4 MiB or 5 s), because closing a socket
 * with unread data resets it and the client would see the reset, not the answer.
 */
export function answerClientError(error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex): void {
  // The parser reports again for each chunk that arrives after the first refusal.
  if (answered.has(socket)) return;
  answered.add(socket);
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  let status = 400;
  let code: ErrorCode = 'bad-request';
  let message = `The request could not be parsed as HTTP (${error.code ?? error.message}).`;
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    // The request line alone past 8 KiB (or not even finished in what arrived): the URL is too long.
    const head = error.rawPacket?.toString('latin1') ?? '';
    const lineEnd = head.indexOf('\r\n');
    if (/^[A-Z]+ /.test(head) && (lineEnd < 0 || lineEnd > MAX_REQUEST_LINE_BYTES)) {
      status = 414;
      code = 'url-too-long';
      message = 'The request URL is too long; send parameters in a JSON body.';
    } else {
      status = 431;
      code = 'headers-too-large';
      message = 'The request headers are too large (16 KiB at most); send less in headers, or put data in the body.';
    }
  } else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    status = 408;
    message = 'The request did not arrive in time; send it again.';
  }
  const body = JSON.stringify({ error: { code, message, retryable: false } });
  const reason = { 400: 'Bad Request', 408: 'Request Timeout', 414: 'URI Too Long', 431: 'Request Header Fields Too Large' }[status];
  let drained = 0;
  socket.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_BYTES) socket.destroy();
  });
  socket.on('error', () => undefined);
  setTimeout(() => socket.destroy(), DRAIN_MS).unref();
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
      `x-request-id: ${randomUUID()}\r\nconnection: close\r\n\r\n${body}`,
  );
  socket.resume();
}

/** Installs `answerClientError` on a Node HTTP server (the producer server, the render API's serveLocal). */
export function answerClientErrors(server: EventEmitter): void {
  server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => answerClientError(error, socket));
}
