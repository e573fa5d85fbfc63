import type { CDPSession, Page } from 'puppeteer-core';
import { CANVAS_ID, COMPOSITION_FRAME_ID } from './canvas-host.js';
import type { FrameChannel } from './frame-receiver.js';
import type { CapturedFrame } from './capture-page.js';

/**
 * The worker that sends a canvas capture's pixels, created from a data: URL that starts with this
 * marker. The browser launcher tells puppeteer to leave it alone (launch-browser.ts): with
 * DevTools' network agent attached, every WebSocket message is copied into a DevTools event as
 * base64 (~140 ms of CPU per 1080p frame instead of ~10).
 */
export const FRAME_SENDER_MARKER = '/*seekframe-frame-sender*/';
export const FRAME_SENDER_URL_PREFIX = `data:text/javascript,${encodeURIComponent(FRAME_SENDER_MARKER)}`;

/**
 * Runs in the worker (serialised with its source): connects to the frame receiver, then copies
 * each VideoFrame it is handed into one reused buffer as BGRA/BGRX and sends it. A failure closes
 * the socket, which fails the capture waiting for that frame in Node with the reason.
 */
function frameSender(scope: {
  onmessage: ((event: { data: { connect?: string; frame?: VideoFrame } }) => void) | null;
  postMessage(message: unknown): void;
}): void {
  let socket: WebSocket | undefined;
  let buffer: Uint8Array | undefined;
  scope.onmessage = async (event) => {
    const { connect, frame } = event.data;
    if (connect) {
      socket = new WebSocket(connect);
      socket.binaryType = 'arraybuffer';
      socket.onopen = () => scope.postMessage({ opened: true });
      socket.onerror = () => scope.postMessage({ failed: `could not reach ${connect}` });
      return;
    }
    if (!frame) return;
    try {
      const native = frame.format === 'BGRA' || frame.format === 'BGRX';
      const options = native ? undefined : ({ format: 'BGRA' } as VideoFrameCopyToOptions);
      const size = frame.allocationSize(options);
      if (!buffer || buffer.byteLength !== size) buffer = new Uint8Array(size);
      await frame.copyTo(buffer, options);
      socket!.send(buffer);
    } catch (error) {
      socket?.close(4000, String(error).slice(0, 100));
    } finally {
      frame.close();
    }
  };
}

/** The worker's source as a data: URL (the marker first: see FRAME_SENDER_MARKER). */
export function frameSenderUrl(): string {
  return `${FRAME_SENDER_URL_PREFIX}${encodeURIComponent(`var __name=function(f){return f};(${frameSender.toString()})(self);`)}`;
}

/**
 * Starts the sender worker in the host page and connects it to `channel`. Runs once per capture
 * page, after the composition is ready.
 */
export async function connectFrameSender(page: Page, channel: FrameChannel, workerUrl: string): Promise<void> {
  const opened = page.evaluate(
    (url: string, target: string, canvasId: string) =>
      new Promise<string>((resolve) => {
        const worker = new Worker(url, { name: 'seekframe-frame-sender' });
        (window as unknown as { __seekframeSender: Worker }).__seekframeSender = worker;
        worker.onmessage = (event: MessageEvent<{ opened?: boolean; failed?: string }>) =>
          resolve(event.data.opened ? '' : (event.data.failed ?? 'unknown'));
        worker.onerror = (event) => resolve(event.message || 'the frame sender worker failed to start');
        worker.postMessage({ connect: target });
        // Software canvas, read back every frame: keep its pixels in memory, not on a GPU.
        (document.getElementById(canvasId) as HTMLCanvasElement).getContext('2d', { willReadFrequently: true });
      }),
    workerUrl,
    channel.url,
    CANVAS_ID,
  );
  const failure = await opened;
  if (failure) throw new Error(`canvas capture: the frame sender could not connect (${failure})`);
  await channel.connected;
}

/**
 * One canvas capture: a beginFrame that runs the page's lifecycle without drawing anything for
 * the screen (the paint it records is what drawElementImage draws), then the composition frame
 * drawn into the canvas over white (opaque output: what a screenshot shows where the page paints
 * nothing) and handed to the worker as a VideoFrame, and the raw pixels awaited from the channel.
 */
export function canvasCapture(cdp: CDPSession, page: Page, channel: FrameChannel): () => Promise<CapturedFrame> {
  return async () => {
    await cdp.send('HeadlessExperimental.beginFrame', { noDisplayUpdates: true });
    const arriving = channel.next();
    arriving.catch(() => undefined);
    await page.evaluate(
      (canvasId: string, frameId: string) => {
        const canvas = document.getElementById(canvasId) as HTMLCanvasElement;
        const context = canvas.getContext('2d') as CanvasRenderingContext2D & {
          drawElementImage(element: Element, x: number, y: number): DOMMatrix;
        };
        context.fillStyle = '#ffffff';
        context.fillRect(0, 0, canvas.width, canvas.height);
        context.drawElementImage(document.getElementById(frameId)!, 0, 0);
        const frame = new VideoFrame(canvas, { timestamp: 0 });
        (window as unknown as { __seekframeSender: Worker }).__seekframeSender.postMessage({ frame }, [frame]);
      },
      CANVAS_ID,
      COMPOSITION_FRAME_ID,
    );
    return { data: await arriving, reused: false };
  };
}
