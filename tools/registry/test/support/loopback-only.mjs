// Preloaded into a Node process (NODE_OPTIONS=--import=<this file>) to prove it talks only to
// 127.0.0.1 / ::1: any other TCP connection is refused before DNS and recorded in the file named
// by SEEKFRAME_LOOPBACK_LOG (one JSON line each).
import { appendFileSync } from 'node:fs';
import net from 'node:net';

const log = process.env.SEEKFRAME_LOOPBACK_LOG;
const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost', '::ffff:127.0.0.1']);
const original = net.Socket.prototype.connect;

net.Socket.prototype.connect = function connect(...args) {
  const first = args[0];
  const options =
    first && typeof first === 'object' && !Array.isArray(first)
      ? first
      : { port: first, host: typeof args[1] === 'string' ? args[1] : undefined };
  const host = options.path ? 'unix' : (options.host ?? 'localhost');
  if (host !== 'unix' && !LOOPBACK.has(String(host))) {
    if (log) appendFileSync(log, `${JSON.stringify({ pid: process.pid, host, port: options.port })}\n`);
    const error = Object.assign(new Error(`loopback-only: refused a connection to ${host}:${options.port}`), { code: 'ECONNREFUSED' });
    process.nextTick(() => this.destroy(error));
    return this;
  }
  return original.apply(this, args);
};
