import type { Server } from 'node:net';

/** Starts `server` on a free port of 127.0.0.1 (loopback only: nothing off the machine can connect) and gives the port. */
export async function listenOnLoopback(server: Server): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('the loopback server has no port');
  return address.port;
}
