import type { ServerResponse } from 'node:http';
import { openSseStream, pipeSseToNode, type SseStream } from '@seekframe/producer';

/** Server-sent events to every open preview page (`GET /__seekframe/preview/events`), on the producer's SSE helper. */
export class SseHub {
  private readonly clients = new Set<SseStream>();

  add(res: ServerResponse): void {
    const stream = openSseStream({ outgoing: res, greeting: 'connected', onDisconnect: () => this.clients.delete(stream) });
    this.clients.add(stream);
    pipeSseToNode(stream, res);
  }

  send(event: string, data: unknown): void {
    for (const stream of this.clients) stream.send(event, data);
  }

  close(): void {
    for (const stream of this.clients) stream.end();
    this.clients.clear();
  }
}
