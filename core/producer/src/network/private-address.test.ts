import { describe, expect, it } from 'vitest';
import { assertPublicUrl, isPrivateAddress } from './private-address.js';

describe('isPrivateAddress', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '::1',
    '::',
    'fd00::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    'not-an-ip',
  ])('%s is refused', (address) => expect(isPrivateAddress(address)).toBe(true));

  it.each([
    // IPv4: benchmarking 198.18.0.0/15, reserved 240.0.0.0/4, limited broadcast, documentation.
    '198.18.0.1',
    '198.19.255.255',
    '240.0.0.1',
    '250.1.2.3',
    '255.255.255.255',
    '192.0.2.1',
    '203.0.113.9',
    // fec0::/10 site-local, 100::/64 discard, fe80 with a zone id.
    'fec0::1',
    'feff::1',
    '100::1',
    '100::ffff:ffff:ffff:ffff',
    'fe80::1%eth0',
    // ::/96, IPv4-compatible (deprecated), whatever the embedded address.
    '::8.8.8.8',
    '::808:808',
    '::7f00:1',
    // ::ffff:0:0/96 in hex form: the embedded IPv4 is loopback/private.
    '::ffff:7f00:1',
    '::FFFF:a00:1',
    '0:0:0:0:0:ffff:169.254.169.254',
    // NAT64 64:ff9b::/96 and the local-use 64:ff9b:1::/48 with a private IPv4 inside.
    '64:ff9b::127.0.0.1',
    '64:ff9b::a9fe:a9fe',
    '64:ff9b::10.0.0.1',
    '64:ff9b:1::192.168.0.1',
    // 64:ff9b:1::/48 where the IPv4 part is not in the /96 position: cannot be judged.
    '64:ff9b:1:2::808:808',
    // 6to4 2002::/16 with a private IPv4 in bits 16-47.
    '2002:7f00:1::',
    '2002:a9fe:a9fe::1',
    '2002:c0a8:101::',
    // Teredo and documentation inside 2000::/3.
    '2001::1',
    '2001:db8::1',
  ])('%s (special range) is refused', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '192.169.0.1',
    '198.17.255.255',
    '198.20.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    // The same forms with a public IPv4 inside reach a public host.
    '::ffff:808:808',
    '64:ff9b::8.8.8.8',
    '64:ff9b::808:808',
    '64:ff9b:1::1.1.1.1',
    '2002:808:808::1',
  ])('%s is public', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });

  it('refuses what is not an address', () => {
    for (const text of ['', 'localhost', '1.2.3', '::g', '1:2:3:4:5:6:7:8:9']) expect(isPrivateAddress(text), text).toBe(true);
  });
});

describe('assertPublicUrl', () => {
  it('refuses other schemes, loopback literals and names that resolve to loopback', async () => {
    await expect(assertPublicUrl('file:///etc/passwd')).rejects.toThrow(/file: URLs are not allowed; only http\(s\)/);
    await expect(assertPublicUrl('http://[::1]:8080/x')).rejects.toThrow(/resolves to ::1/);
    await expect(assertPublicUrl('http://169.254.169.254/latest/meta-data')).rejects.toThrow(
      /169\.254\.169\.254 resolves to 169\.254\.169\.254/,
    );
    await expect(assertPublicUrl('http://localhost/x')).rejects.toThrow(/localhost resolves to/);
    await expect(assertPublicUrl('http://[64:ff9b::7f00:1]/x')).rejects.toThrow(/resolves to 64:ff9b::7f00:1/);
    await expect(assertPublicUrl('http://8.8.8.8/x')).resolves.toBeUndefined();
  });
});
