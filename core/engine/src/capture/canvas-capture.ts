import type { CDPSession, Page } from 'puppeteer-core';
import { CANVAS_ID, COMPOSITION_FRAME_ID } from './canvas-host.js';
import type { FrameChannel } from './frame-receiver.js';
import type { CapturedFrame } from './capture-page.js';
import { BGRA_TO_I420_WASM } from './bgra-to-i420-wasm.js';

/** How a canvas capture hands over its pixels: raw BGRA, or I420 (yuv420p, BT.709 limited range) converted in the page. */
export type CanvasPixels = 'bgra' | 'i420';

/**
 * I420 when the output is 4:2:0 video anyway (mp4, hls) and the size suits the converter
 * (bgra-to-i420.wat: width a multiple of 8, even height): 1.5 bytes a pixel instead of 4 to send,
 * receive and pipe, and nothing for ffmpeg to convert.
 */
export function canvasPixelsFor(output: { yuv420: boolean; width: number; height: number }): CanvasPixels {
  return output.yuv420 && output.width % 8 === 0 && output.height % 2 === 0 ? 'i420' : 'bgra';
}

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
 * each VideoFrame it is handed into WebAssembly memory as BGRA, converts it to I420 there when
 * asked, and sends the pixels. A failure closes the socket, which fails the capture waiting for
 * that frame in Node with the reason.
 *
 * A canvas VideoFrame copies out with premultiplied alpha (half-transparent red is 128,0,0,128);
 * for transparent output (`straight`) colours are divided back by their alpha, as PNG and every
 * encoder downstream expect them. Only partly transparent pixels need it: opaque and clear ones
 * (nearly all of a typical overlay) cost a byte read each.
 */
function frameSender(scope: {
  onmessage:
    | ((event: { data: { connect?: string; pixels?: CanvasPixels; straight?: boolean; wasm?: string; frame?: VideoFrame } }) => void)
    | null;
  postMessage(message: unknown): void;
}): void {
  let socket: WebSocket | undefined;
  let pixels: CanvasPixels = 'bgra';
  let straight = false;
  let memory: WebAssembly.Memory | undefined;
  let convert: ((src: number, dst: number, width: number, height: number) => void) | undefined;
  scope.onmessage = async (event) => {
    const { connect, frame } = event.data;
    if (connect) {
      pixels = event.data.pixels ?? 'bgra';
      straight = event.data.straight === true;
      try {
        const bytes = Uint8Array.from(atob(event.data.wasm!), (c) => c.charCodeAt(0));
        const { instance } = await WebAssembly.instantiate(bytes);
        memory = instance.exports.memory as WebAssembly.Memory;
        convert = instance.exports.convert as typeof convert;
      } catch (error) {
        scope.postMessage({ failed: `WebAssembly: ${String(error)}` });
        return;
      }
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
      const width = frame.codedWidth;
      const height = frame.codedHeight;
      const out = pixels === 'i420' ? (width * height * 3) / 2 : 0;
      const missing = size + out - memory!.buffer.byteLength;
      if (missing > 0) memory!.grow(Math.ceil(missing / 65536));
      await frame.copyTo(new Uint8Array(memory!.buffer, 0, size), options);
      if (straight) {
        const bgra = new Uint8Array(memory!.buffer, 0, size);
        for (let i = 3; i < size; i += 4) {
          const alpha = bgra[i]!;
          if (alpha === 255 || alpha === 0) continue;
          for (let c = i - 3; c < i; c++) bgra[c] = Math.min(255, Math.round((bgra[c]! * 255) / alpha));
        }
      }
      if (pixels === 'i420') {
        convert!(0, size, width, height);
        socket!.send(new Uint8Array(memory!.buffer, size, out));
      } else {
        socket!.send(new Uint8Array(memory!.buffer, 0, size));
      }
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
 * Starts the sender worker in the host page, connects it to `channel`, and defines the host's
 * draw function (drawFrame below). Runs once per capture page, after the composition is ready.
 */
export async function connectFrameSender(
  page: Page,
  channel: FrameChannel,
  workerUrl: string,
  drawing: { pixels: CanvasPixels; transparent: boolean },
): Promise<void> {
  const opened = page.evaluate(
    (
      url: string,
      target: string,
      canvasId: string,
      frameId: string,
      { pixels: format, transparent }: { pixels: CanvasPixels; transparent: boolean },
      wasm: string,
    ) =>
      new Promise<string>((resolve) => {
        const host = window as unknown as HostWindow;
        const worker = new Worker(url, { name: 'seekframe-frame-sender' });
        worker.onmessage = (event: MessageEvent<{ opened?: boolean; failed?: string }>) =>
          resolve(event.data.opened ? '' : (event.data.failed ?? 'unknown'));
        worker.onerror = (event) => resolve(event.message || 'the frame sender worker failed to start');
        worker.postMessage({ connect: target, pixels: format, straight: transparent, wasm });
        const canvas = document.getElementById(canvasId) as HTMLCanvasElement;
        const frame = document.getElementById(frameId)!;
        // Software canvas, read back every frame: keep its pixels in memory, not on a GPU.
        const context = canvas.getContext('2d', { willReadFrequently: true }) as CanvasRenderingContext2D & {
          drawElementImage(element: Element, x: number, y: number): DOMMatrix;
        };
        // Chromium fires 'paint' at the canvas in every rendering update in which the rendering
        // of its children changed (the composition frame: any repaint, transform or opacity
        // change inside it), pumped frames during a seek included. No paint since the last draw:
        // the composition looks exactly as it was drawn then.
        let changed = true;
        canvas.addEventListener('paint', () => {
          changed = true;
        });
        host.__seekframeDraw = (skipUnchanged: boolean) => {
          if (skipUnchanged && !changed) return false;
          changed = false;
          context.setTransform(1, 0, 0, 1, 0, 0);
          if (transparent) {
            // What the page leaves unpainted stays see-through (an iframe's page has no backdrop).
            context.clearRect(0, 0, canvas.width, canvas.height);
          } else {
            context.fillStyle = '#ffffff';
            context.fillRect(0, 0, canvas.width, canvas.height);
          }
          context.drawElementImage(frame, 0, 0);
          const videoFrame = new VideoFrame(canvas, { timestamp: 0 });
          worker.postMessage({ frame: videoFrame }, [videoFrame]);
          return true;
        };
      }),
    workerUrl,
    channel.url,
    CANVAS_ID,
    COMPOSITION_FRAME_ID,
    drawing,
    BGRA_TO_I420_WASM,
  );
  const failure = await opened;
  if (failure) throw new Error(`canvas capture: the frame sender could not connect (${failure})`);
  await channel.connected;
}

/** What connectFrameSender defines in the host page. */
interface HostWindow {
  /** Draws the composition frame and sends it; false (nothing sent) when skipping an unchanged frame. */
  __seekframeDraw(skipUnchanged: boolean): boolean;
}

/**
 * One canvas capture: a beginFrame that runs the page's lifecycle without drawing anything for
 * the screen (the paint it records is what drawElementImage draws), then the composition frame
 * drawn into the canvas, over white for opaque output (what a screenshot shows where the page
 * paints nothing) or over nothing for transparent output, and handed to the worker as a
 * VideoFrame, and the raw pixels awaited from the channel. With --scale the page paints at that
 * device scale factor and the canvas has as many more pixels, so the paint is drawn 1:1, not
 * resampled (as beginframe's screenshot at that scale, to a level or two).
 *
 * Unchanged frames (`skipUnchanged`, default on): when Chromium fired no 'paint' event for the
 * composition since the last frame drawn, nothing is drawn or sent and that frame's buffer is
 * handed out again (`reused`), as beginframe does on Chromium's damage report. The verdict is
 * Chromium's paint invalidation, never a guess about which animations run.
 *
 * The draw is one Runtime.evaluate of a function the host page already has, not a puppeteer
 * evaluate (which serialises the function and records a stack trace on every call).
 */
export function canvasCapture(
  cdp: CDPSession,
  channel: FrameChannel,
  frameBytes: number,
  skipUnchanged = true,
): () => Promise<CapturedFrame> {
  const expression = `window.__seekframeDraw(${skipUnchanged})`;
  // The last frame sent, kept (one reference of its own) while an unchanged frame may repeat it.
  let previous: Buffer | undefined;
  return async () => {
    await cdp.send('HeadlessExperimental.beginFrame', { noDisplayUpdates: true });
    const drawn = await cdp.send('Runtime.evaluate', { expression, returnByValue: true });
    if (drawn.exceptionDetails) {
      throw new Error(
        `canvas capture: drawing the frame failed (${drawn.exceptionDetails.exception?.description ?? drawn.exceptionDetails.text})`,
      );
    }
    if (drawn.result.value === false) {
      if (!previous) throw new Error('canvas capture: the page skipped a frame before any was drawn');
      channel.hold(previous);
      const data = previous;
      return { data, reused: true, release: () => channel.release(data) };
    }
    // Messages wait in the channel until asked for, so asking after the draw loses nothing.
    const data = await channel.next();
    // A message of another size would shift every later frame in ffmpeg's raw input.
    if (data.length !== frameBytes) throw new Error(`canvas capture: a frame of ${data.length} bytes arrived, ${frameBytes} expected`);
    if (skipUnchanged) {
      if (previous) channel.release(previous);
      channel.hold(data);
      previous = data;
    }
    return { data, reused: false, release: () => channel.release(data) };
  };
}
