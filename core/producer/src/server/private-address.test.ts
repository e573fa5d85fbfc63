import { describe, expect, it } from 'vitest';
import { assertPublicUrl, isPrivateAddress } from './private-address.js';

describe('isPrivateAddress', () => {
  it.each(['127.0.0.1', '127.8.9.10', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '::1', '::', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', 'not-an-ip'])(
    '%s is refused',
    (address) => expect(isPrivateAddress(address)).toBe(true),
  );

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '192.169.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('%s is public', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });
});

describe('assertPublicUrl', () => {
  it('refuses other schemes, loopback literals and names that resolve to loopback', async () => {
    await expect(assertPublicUrl('file:///etc/passwd')).rejects.toThrow(/file: URLs are not allowed; only http\(s\)/);
    await expect(assertPublicUrl('http://[::1]:8080/x')).rejects.toThrow(/resolves to ::1/);
    await expect(assertPublicUrl('http://169.254.169.254/latest/meta-data')).rejects.toThrow(/169\.254\.169\.254 resolves to 169\.254\.169\.254/);
    await expect(assertPublicUrl('http://localhost/x')).rejects.toThrow(/localhost resolves to/);
    await expect(assertPublicUrl('http://8.8.8.8/x')).resolves.toBeUndefined();
  });
});
