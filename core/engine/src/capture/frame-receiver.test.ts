import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { FrameBuffers } from './frame-buffers.js';
import { MessageParser, unmask } from './frame-receiver.js';

/** One client frame (RFC 6455): masked, with the given opcode and FIN bit. */
function clientFrame(payload: Buffer, opcode: number, fin: boolean): Buffer {
  const mask = randomBytes(4);
  const length = payload.length;
  const head =
    length < 126
      ? Buffer.from([(fin ? 0x80 : 0) | opcode, 0x80 | length])
      : length < 65536
        ? Buffer.from([(fin ? 0x80 : 0) | opcode, 0x80 | 126, length >> 8, length & 255])
        : Buffer.concat([Buffer.from([(fin ? 0x80 : 0) | opcode, 0x80 | 127]), bigLength(length)]);
  const masked = Buffer.from(payload.map((byte, i) => byte ^ mask[i & 3]!));
  return Buffer.concat([head, mask, masked]);
}

function bigLength(length: number): Buffer {
  const out = Buffer.alloc(8);
  out.writeBigUInt64BE(BigInt(length));
  return out;
}

/** Feeds `bytes` in chunks of `size` and returns the messages and errors. */
function parse(bytes: Buffer, size: number, expected = 0): { messages: Buffer[]; errors: string[] } {
  const messages: Buffer[] = [];
  const errors: string[] = [];
  const parser = new MessageParser(
    (message) => messages.push(Buffer.from(message)),
    (error) => errors.push(error.message),
    expected > 0 ? new FrameBuffers(expected) : undefined,
  );
  for (let offset = 0; offset < bytes.length; offset += size) parser.push(bytes.subarray(offset, offset + size));
  return { messages, errors };
}

describe('frame receiver: MessageParser', () => {
  const big = randomBytes(70_003); // 64-bit length, odd size: unaligned tails
  const small = randomBytes(300); // 16-bit length

  it('reassembles masked messages whatever the chunking, fragments and interleaved control frames', () => {
    const stream = Buffer.concat([
      clientFrame(small, 2, true),
      // One message in three fragments, a ping between them.
      clientFrame(big.subarray(0, 1001), 2, false),
      clientFrame(Buffer.from('ping'), 9, true),
      clientFrame(big.subarray(1001, 40_000), 0, false),
      clientFrame(big.subarray(40_000), 0, true),
      clientFrame(Buffer.alloc(5, 7), 2, true),
    ]);
    for (const chunk of [1, 3, 7, 4096, stream.length]) {
      for (const expected of [0, big.length]) {
        const { messages, errors } = parse(stream, chunk, expected);
        expect(errors).toEqual([]);
        expect(messages.map((m) => m.length)).toEqual([300, big.length, 5]);
        expect(messages[0]!.equals(small)).toBe(true);
        expect(messages[1]!.equals(big)).toBe(true);
        expect(messages[2]!.equals(Buffer.alloc(5, 7))).toBe(true);
      }
    }
  });

  it('refuses unmasked frames and text frames', () => {
    const unmasked = Buffer.concat([Buffer.from([0x82, 3]), Buffer.from('abc')]);
    expect(parse(unmasked, 100).errors[0]).toContain('not masked');
    expect(parse(clientFrame(Buffer.from('hello'), 1, true), 100).errors[0]).toContain('text frames');
  });
});

describe('frame receiver: unmask', () => {
  it('matches a byte-by-byte XOR at every alignment and mask phase', () => {
    const data = randomBytes(64);
    const mask = 0xa1b2c3d4;
    const bytes = [0xa1, 0xb2, 0xc3, 0xd4];
    for (let start = 0; start < 5; start++) {
      for (let phase = 0; phase < 4; phase++) {
        const target = Buffer.from(data);
        unmask(target, start, 50, mask, phase);
        for (let i = 0; i < 64; i++) {
          const inside = i >= start && i < start + 50;
          expect(target[i], `start ${start} phase ${phase} byte ${i}`).toBe(inside ? data[i]! ^ bytes[(phase + i - start) & 3]! : data[i]);
        }
      }
    }
  });
});
