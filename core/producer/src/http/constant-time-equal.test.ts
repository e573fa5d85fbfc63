import { describe, expect, it } from 'vitest';
import { constantTimeEqual, sha256Hex } from './constant-time-equal.js';

describe('constantTimeEqual', () => {
  it('is true only for the same string', async () => {
    expect(await constantTimeEqual('s3cret', 's3cret')).toBe(true);
    expect(await constantTimeEqual('s3cret', 's3creT')).toBe(false);
    expect(await constantTimeEqual('s3cret', 's3cret ')).toBe(false);
    expect(await constantTimeEqual('', 's3cret')).toBe(false);
    expect(await constantTimeEqual('ünïcode', 'ünïcode')).toBe(true);
  });
});

describe('sha256Hex', () => {
  it('is the SHA-256 of the UTF-8 text', async () => {
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
