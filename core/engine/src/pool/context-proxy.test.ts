import { describe, expect, it } from 'vitest';
import { contextProxy, splitProxyFlags } from './context-proxy.js';

describe("a render's proxy flags as a pooled browser context's proxy", () => {
  it('takes the proxy flags out of the launch flags and into the context', () => {
    const args = ['--mute-audio', '--proxy-server=http://127.0.0.1:4100', '--proxy-bypass-list=<-loopback>; 127.0.0.1:9,', '--no-sandbox'];
    expect(splitProxyFlags(args)).toEqual({
      launchArgs: ['--mute-audio', '--no-sandbox'],
      proxy: { proxyServer: 'http://127.0.0.1:4100', proxyBypassList: ['<-loopback>', '127.0.0.1:9'] },
    });
  });

  it('gives a render without a sandbox no proxy, and leaves its flags as they are', () => {
    expect(contextProxy(['--mute-audio'])).toEqual({});
    expect(splitProxyFlags(['--mute-audio'])).toEqual({ launchArgs: ['--mute-audio'], proxy: {} });
  });
});
