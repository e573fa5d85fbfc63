import type { ServerResponse } from 'node:http';

/** Proxies and browsers drop idle streams; a comment line this often keeps them open. */
const KEEP_ALIVE_MS = 15_000;

/** Server-sent events to every open preview page (`GET /__seekframe/preview/events`). */
export class SseHub {
  private readonly clients = new Set<ServerResponse>();
  private readonly keepAlive = setInterval(() => this.write(': keep-alive\n\n'), KEEP_ALIVE_MS).unref();

  add(res: ServerResponse): void {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
    res.write(': connected\n\n');
    this.clients.add(res);
    res.on('close', () => this.clients.delete(res));
  }

  send(event: string, data: unknown): void {
    this.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  close(): void {
    clearInterval(this.keepAlive);
    for (const res of this.clients) res.end();
    this.clients.clear();
  }

  private write(text: string): void {
    for (const res of this.clients) res.write(text);
  }
}
