import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { listenOnLoopback } from '../system/listen-on-loopback.js';
import { FrameBuffers } from './frame-buffers.js';

/**
 * Where canvas capture pages send their pixels: one WebSocket server on loopback for the whole
 * process, one channel (a random token in the URL) per capture page.
 *
 * Why a WebSocket, and why our own few lines of it: measured in Chromium 156 on 2 cores, sending
 * a 1080p frame (8 MB) costs the browser ~10 ms as a WebSocket message from a worker and ~28 ms
 * as a fetch POST (the upload path copies the body several times); base64 through DevTools is
 * dearer still. A browser masks every byte it sends, and the `ws` package unmasks in a byte loop
 * without its optional native add-on (~40 ms of Node per 8 MB frame): here the payload is copied
 * once into its message buffer and unmasked 32 bits at a time (~2-3 ms).
 */
export interface FrameChannel {
  /** ws://127.0.0.1:<port>/<token>: the page connects here. */
  readonly url: string;
  /**
   * Resolves with the next whole binary message, in the order sent; rejects once the connection
   * is gone. A message of the expected size is a buffer of the channel's own (see release).
   */
  next(): Promise<Buffer>;
  /** Hands a message's buffer back for a later message, once nothing reads it (see FrameBuffers). */
  release(message: Buffer): void;
  /** One more reference to a message's buffer (it is delivered once more); release it once more too. */
  hold(message: Buffer): void;
  /** Resolves when the page's socket is open (or rejects when the channel is closed first). */
  readonly connected: Promise<void>;
  close(): void;
}

interface ChannelState {
  messages: Buffer[];
  waiters: Array<{ resolve(message: Buffer): void; reject(error: Error): void }>;
  socket: Socket | undefined;
  failure: Error | undefined;
  onConnect(): void;
  onConnectFailed(error: Error): void;
  /** Buffers for messages of the expected size (a frame), when it is known. */
  buffers: FrameBuffers | undefined;
}

const WS_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
/** A 4K RGBA frame is 33 MB; nothing a capture page sends is larger than this. */
const MAX_MESSAGE_BYTES = 256 * 1024 * 1024;

let receiver: Promise<{ server: Server; port: number; channels: Map<string, ChannelState> }> | undefined;

/** The process's frame receiver, started on first use; never keeps the process alive. */
function startReceiver(): Promise<{ server: Server; port: number; channels: Map<string, ChannelState> }> {
  receiver ??= (async () => {
    const channels = new Map<string, ChannelState>();
    const server = createServer((_req, res) => {
      res.writeHead(426, { connection: 'close' }).end();
    });
    server.on('upgrade', (req: IncomingMessage, socket: Socket) => acceptChannel(req, socket, channels));
    server.on('clientError', (_error, socket: Socket) => socket.destroy());
    const port = await listenOnLoopback(server);
    server.unref();
    return { server, port, channels };
  })();
  receiver.catch(() => (receiver = undefined));
  return receiver;
}

/**
 * How many frame channels are open in this process: each is a capture page that has not been
 * closed or disposed yet. 0 once every render has ended (a long-running server's leak check).
 */
export async function openFrameChannelCount(): Promise<number> {
  return receiver ? (await receiver).channels.size : 0;
}

/**
 * The receiver as a network sandbox sees it (started if needed): the one loopback address a
 * sandboxed capture page may open a tunnel to (`127.0.0.1:<port>`), and `adopt`, which hands the
 * tunnel's client socket straight to the receiver in this process (with the bytes already read
 * past the CONNECT request), so the frames cross no second socket. The receiver answers nothing
 * but a WebSocket upgrade to the path of an open channel (a random 128-bit token), once.
 */
export async function frameReceiverDoor(): Promise<{ host: string; port: number; adopt(socket: Socket, head: Buffer): void }> {
  const { server, port } = await startReceiver();
  return {
    host: `127.0.0.1:${port}`,
    port,
    adopt: (socket, head) => {
      if (head.length > 0) socket.unshift(head);
      server.emit('connection', socket);
    },
  };
}

/** A new channel for one capture page; `expectedBytes` = the size of its messages when known. */
export async function openFrameChannel(expectedBytes = 0): Promise<FrameChannel> {
  const { port, channels } = await startReceiver();
  const token = randomBytes(16).toString('hex');
  let connect!: () => void;
  let connectFailed!: (error: Error) => void;
  const connected = new Promise<void>((resolve, reject) => {
    connect = resolve;
    connectFailed = reject;
  });
  connected.catch(() => undefined);
  const state: ChannelState = {
    messages: [],
    waiters: [],
    socket: undefined,
    failure: undefined,
    onConnect: connect,
    onConnectFailed: connectFailed,
    buffers: expectedBytes > 0 ? new FrameBuffers(expectedBytes) : undefined,
  };
  channels.set(token, state);
  return {
    url: `ws://127.0.0.1:${port}/${token}`,
    connected,
    next: () => {
      const message = state.messages.shift();
      if (message) return Promise.resolve(message);
      if (state.failure) return Promise.reject(state.failure);
      return new Promise<Buffer>((resolve, reject) => state.waiters.push({ resolve, reject }));
    },
    release: (message) => state.buffers?.release(message),
    hold: (message) => state.buffers?.hold(message),
    close: () => {
      channels.delete(token);
      fail(state, new Error('the frame channel was closed'));
      state.socket?.destroy();
      state.buffers?.clear();
    },
  };
}

function fail(state: ChannelState, error: Error): void {
  if (state.failure) return;
  state.failure = error;
  state.onConnectFailed(error);
  for (const waiter of state.waiters.splice(0)) waiter.reject(error);
}

/** The WebSocket handshake for a known token; anything else is dropped without an answer. */
function acceptChannel(req: IncomingMessage, socket: Socket, channels: Map<string, ChannelState>): void {
  const token = (req.url ?? '').slice(1);
  const state = channels.get(token);
  const key = req.headers['sec-websocket-key'];
  if (!state || state.socket || typeof key !== 'string' || req.headers.upgrade?.toLowerCase() !== 'websocket') {
    socket.destroy();
    return;
  }
  state.socket = socket;
  socket.setNoDelay(true);
  const accept = createHash('sha1')
    .update(key + WS_GUID)
    .digest('base64');
  socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
  const parser = new MessageParser(
    (message) => {
      const waiter = state.waiters.shift();
      if (waiter) waiter.resolve(message);
      else state.messages.push(message);
    },
    (error) => {
      fail(state, error);
      socket.destroy();
    },
    state.buffers,
  );
  socket.on('data', (chunk: Buffer) => parser.push(chunk));
  socket.on('close', () => fail(state, new Error('the capture page closed its frame connection')));
  socket.on('error', () => undefined);
  state.onConnect();
}

/**
 * Reassembles binary messages from client frames (RFC 6455: masked, and fragmented: Chromium
 * sends a large message as many frames). Each fragment is copied once, unmasked, straight into
 * the message's buffer; with `buffers` (a capture page's frames all have one size) that buffer
 * is one of theirs, taken at the expected size up front and reused once released, so a message
 * is never copied again to join its fragments and no frame allocates. Control frames are
 * ignored (a close ends the socket anyway); text frames are an error.
 */
export class MessageParser {
  private header = Buffer.alloc(14);
  private headerFill = 0;
  private payloadLeft = 0;
  private inPayload = false;
  private mask = 0;
  private maskPhase = 0;
  private fin = false;
  private control = false;
  private message: Buffer | undefined;
  private messageFill = 0;

  constructor(
    private readonly onMessage: (message: Buffer) => void,
    private readonly onError: (error: Error) => void,
    private readonly buffers?: FrameBuffers,
  ) {}

  push(chunk: Buffer): void {
    let offset = 0;
    while (offset < chunk.length) {
      if (!this.inPayload) {
        offset = this.readHeader(chunk, offset);
        if (offset < 0) return;
        continue;
      }
      const take = Math.min(this.payloadLeft, chunk.length - offset);
      if (!this.control) {
        chunk.copy(this.message!, this.messageFill, offset, offset + take);
        unmask(this.message!, this.messageFill, take, this.mask, this.maskPhase);
        this.messageFill += take;
      }
      this.maskPhase = (this.maskPhase + take) & 3;
      this.payloadLeft -= take;
      offset += take;
      if (this.payloadLeft === 0) this.endFrame();
    }
  }

  /** Reads header bytes; returns the new offset, or -1 after an error. */
  private readHeader(chunk: Buffer, offset: number): number {
    while (offset < chunk.length) {
      this.header[this.headerFill++] = chunk[offset++]!;
      if (this.headerFill === 2 && !(this.header[1]! & 0x80)) return this.error('client frame not masked');
      const need = this.headerLength();
      if (this.headerFill < need) continue;
      const h = this.header;
      const opcode = h[0]! & 0x0f;
      const small = h[1]! & 0x7f;
      const length = small === 126 ? h.readUInt16BE(2) : small === 127 ? Number(h.readBigUInt64BE(2)) : small;
      const maskAt = small === 126 ? 4 : small === 127 ? 10 : 2;
      this.mask = h.readUInt32BE(maskAt);
      this.maskPhase = 0;
      this.fin = (h[0]! & 0x80) !== 0;
      this.control = opcode >= 8;
      this.headerFill = 0;
      if (opcode === 1) return this.error('text frames are not frames of pixels');
      if (!this.control && !this.room(length)) return this.error(`message over ${MAX_MESSAGE_BYTES} bytes`);
      this.payloadLeft = length;
      this.inPayload = length > 0;
      if (length === 0) this.endFrame();
      return offset;
    }
    return offset;
  }

  /** Makes room for `length` more bytes of the current message; false past the size limit. */
  private room(length: number): boolean {
    const needed = this.messageFill + length;
    if (needed > MAX_MESSAGE_BYTES) return false;
    if (!this.message) this.message = this.buffers && needed <= this.buffers.size ? this.buffers.take() : Buffer.allocUnsafeSlow(needed);
    else if (needed > this.message.length) {
      const grown = Buffer.allocUnsafeSlow(Math.max(needed, this.message.length * 2));
      this.message.copy(grown, 0, 0, this.messageFill);
      this.message = grown;
    }
    return true;
  }

  private headerLength(): number {
    if (this.headerFill < 2) return 2;
    const small = this.header[1]! & 0x7f;
    return (small === 126 ? 4 : small === 127 ? 10 : 2) + 4;
  }

  private endFrame(): void {
    this.inPayload = false;
    if (this.control || !this.fin) return;
    // A message that fills its buffer is that buffer itself, so it can be released to be reused.
    const message = !this.message
      ? Buffer.alloc(0)
      : this.messageFill === this.message.length
        ? this.message
        : this.message.subarray(0, this.messageFill);
    this.message = undefined;
    this.messageFill = 0;
    this.onMessage(message);
  }

  private error(message: string): number {
    this.onError(new Error(`frame channel: ${message}`));
    return -1;
  }
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * XORs `length` bytes of `target` from `start` with the 4-byte mask, whose byte `phase` applies
 * to the first of them. Whole 32-bit words where the buffer allows: 4-8x faster than bytes.
 */
export function unmask(target: Buffer, start: number, length: number, mask: number, phase: number): void {
  const maskBytes = [(mask >>> 24) & 255, (mask >>> 16) & 255, (mask >>> 8) & 255, mask & 255];
  let i = 0;
  let p = phase;
  // Bytes until the address is 4-aligned (allocUnsafeSlow buffers start aligned).
  while (i < length && (target.byteOffset + start + i) % 4 !== 0) {
    target[start + i] = target[start + i]! ^ maskBytes[p]!;
    p = (p + 1) & 3;
    i++;
  }
  const words = LITTLE_ENDIAN ? (length - i) >>> 2 : 0;
  if (words > 0) {
    // The word as stored in memory (little-endian): mask bytes p, p+1, p+2, p+3 in address order.
    const word = (maskBytes[p]! | (maskBytes[(p + 1) & 3]! << 8) | (maskBytes[(p + 2) & 3]! << 16) | (maskBytes[(p + 3) & 3]! << 24)) >>> 0;
    const view = new Uint32Array(target.buffer, target.byteOffset + start + i, words);
    for (let w = 0; w < words; w++) view[w] = view[w]! ^ word;
    i += words * 4;
  }
  while (i < length) {
    target[start + i] = target[start + i]! ^ maskBytes[p]!;
    p = (p + 1) & 3;
    i++;
  }
}
