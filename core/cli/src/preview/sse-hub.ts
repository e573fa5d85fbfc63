import type { ServerResponse } from 'node:http';

/** Server-sent events to every open preview page (`GET /__seekframe/preview/events`). */
export class SseHub {
  private readonly clients = new Set<ServerResponse>();
  private readonly keepAlive: NodeJS.Timeout;

  constructor(keepAliveMs = 15_000) {
    // Proxies and browsers drop idle streams; a comment line keeps them open.
    this.keepAlive = setInterval(() => this.write(': keep-alive\n\n'), keepAliveMs);
    this.keepAlive.unref();
  }

  get size(): number {
    return this.clients.size;
  }

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
