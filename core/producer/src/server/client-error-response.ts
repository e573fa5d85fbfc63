import type { Duplex } from 'node:stream';
import type { ErrorCode } from '@seekframe/composition';

/**
 * Answers a request Node's HTTP parser refused (before any route ran) with the server's JSON
 * error shape: 414 when the request line alone overflowed, 431 for too many header bytes,
 * 400 for anything else it could not parse. Then closes the connection.
 */
export function answerClientError(error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  let status = 400;
  let code: ErrorCode = 'bad-request';
  let message = `The request could not be parsed (${error.code ?? error.message}).`;
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    // The request line alone past 8 KiB (or not even finished): the URL is what is too long.
    const head = error.rawPacket?.toString('latin1') ?? '';
    const lineEnd = head.indexOf('\r\n');
    if (lineEnd < 0 || lineEnd > 8 * 1024) {
      status = 414;
      code = 'url-too-long';
      message = 'The request URL is too long; send parameters in a JSON body.';
    } else {
      status = 431;
      code = 'headers-too-large';
      message = 'The request headers are too large (16 KiB at most); send less in headers, or put data in the body.';
    }
  }
  const body = JSON.stringify({ error: { code, message } });
  const reason = status === 414 ? 'URI Too Long' : status === 431 ? 'Request Header Fields Too Large' : 'Bad Request';
  socket.end(`HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
}
