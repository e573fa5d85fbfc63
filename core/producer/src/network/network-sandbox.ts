import { createServer, type Socket } from 'node:net';

export interface NetworkSandbox {
  /** Chromium flags: everything but the project server goes to a proxy that refuses it. */
  args: string[];
  close(): Promise<void>;
}

/**
 * Locks a render's browsers in: the page may talk to its own project server and nothing else.
 * Request interception per page would miss workers and service workers; a proxy applies to every
 * request the browser process makes. The "proxy" is a loopback socket that hangs up at once, so
 * any other URL fails fast in the page (and the render fails naming it). `<-loopback>` removes
 * Chromium's implicit proxy bypass for localhost, so other loopback ports are refused too. Remote
 * assets still work through the project server's remote route, which checks the address policy.
 */
export async function startNetworkSandbox(projectOrigin: string): Promise<NetworkSandbox> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const project = new URL(projectOrigin);
  return {
    args: [
      `--proxy-server=http://127.0.0.1:${port}`,
      `--proxy-bypass-list=<-loopback>;${project.hostname}:${project.port}`,
      // WebRTC could otherwise send UDP straight to LAN addresses.
      '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
    ],
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
