import { describe, expect, it } from 'vitest';
import { aheadKind } from './context-ahead.js';

describe('aheadKind', () => {
  it('opens ahead for open renders and for a loopback proxy that bypasses nothing, never otherwise', () => {
    expect(aheadKind({})).toBe('open');
    expect(aheadKind({ proxyServer: 'http://127.0.0.1:9000', proxyBypassList: ['<-loopback>'] })).toBe('relayed');
    // A bypass entry names a server the context would reach directly: the context could not be opened before it exists.
    expect(aheadKind({ proxyServer: 'http://127.0.0.1:9000', proxyBypassList: ['<-loopback>', '127.0.0.1:4000'] })).toBeUndefined();
    expect(aheadKind({ proxyServer: 'http://127.0.0.1:9000' })).toBeUndefined();
    expect(aheadKind({ proxyServer: 'http://proxy.example:3128', proxyBypassList: ['<-loopback>'] })).toBeUndefined();
    expect(aheadKind({ proxyBypassList: ['<-loopback>'] })).toBeUndefined();
  });
});
