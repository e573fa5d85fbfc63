import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A throw-away CA and a server certificate for 127.0.0.1 signed by it (openssl, made at test time). */
export async function makeCertificates(dir: string): Promise<{ ca: string; cert: string; key: string }> {
  const file = (name: string): string => path.join(dir, name);
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    file('ca.key'),
    '-out',
    file('ca.crt'),
    '-days',
    '1',
    '-subj',
    '/CN=seekframe test CA',
  ]);
  await run('openssl', [
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    file('server.key'),
    '-out',
    file('server.csr'),
    '-subj',
    '/CN=127.0.0.1',
  ]);
  await writeFile(file('san.ext'), 'subjectAltName=IP:127.0.0.1\n');
  await run('openssl', [
    'x509',
    '-req',
    '-in',
    file('server.csr'),
    '-CA',
    file('ca.crt'),
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-out',
    file('server.crt'),
    '-days',
    '1',
    '-extfile',
    file('san.ext'),
  ]);
  return { ca: file('ca.crt'), cert: file('server.crt'), key: file('server.key') };
}
