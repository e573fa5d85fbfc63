import type { SeekframePlayer } from '@seekframe/player';
import { frameAt } from '@seekframe/composition';
import { element } from './dom.js';
import { DroppedFrames } from './dropped-frames.js';
import type { TimelineView } from './timeline-view.js';
import { formatSeconds, formatTimecode, parseTimecode } from './timecode.js';
import type { Transport } from './transport.js';

/** Shows frame `t` in the transport bar (frame box, timecode, seconds); returns what it showed. */
export function showTransportTime(
  transport: Transport,
  player: SeekframePlayer,
  t: number,
): { frame: number; last: number; timecode: string } {
  const frame = transport.currentFrame();
  const last = transport.lastFrame();
  const timecode = formatTimecode(frame, transport.fps);
  const frameInput = element<HTMLInputElement>('frame');
  const timecodeInput = element<HTMLInputElement>('timecode');
  frameInput.max = String(last);
  if (document.activeElement !== frameInput) frameInput.value = String(frame);
  if (document.activeElement !== timecodeInput) timecodeInput.value = timecode;
  element('frame-count').textContent = `/ ${last}`;
  element('time').textContent = formatSeconds(t, player.duration);
  return { frame, last, timecode };
}

/** The transport bar's buttons, frame and timecode boxes, speed, loop, the dropped-frame count, and the zoom buttons. */
export function bindTransportControls(transport: Transport, player: SeekframePlayer, timeline: TimelineView): void {
  const dropped = new DroppedFrames((text, dropping) => {
    element('dropped').textContent = text;
    element('dropped').classList.toggle('dropping', dropping);
  });
  const play = element('play');
  player.addEventListener('play', () => {
    play.textContent = 'Pause';
    play.setAttribute('aria-label', 'Pause (Space)');
    dropped.start(transport.currentFrame());
  });
  player.addEventListener('pause', () => {
    play.textContent = 'Play';
    play.setAttribute('aria-label', 'Play (Space)');
    dropped.stop();
  });
  player.addEventListener('timeupdate', (e) => {
    if (!player.paused)
      dropped.painted(frameAt((e as CustomEvent<{ currentTime: number }>).detail.currentTime, transport.fps), player.playbackRate);
  });
  const frameInput = element<HTMLInputElement>('frame');
  const timecodeInput = element<HTMLInputElement>('timecode');
  element('play').addEventListener('click', () => transport.togglePlay());
  element('first').addEventListener('click', () => transport.goToFrame(0));
  element('last').addEventListener('click', () => transport.goToFrame(transport.lastFrame()));
  element('prev').addEventListener('click', (e) => transport.step(-(e.shiftKey ? transport.secondFrames() : 1)));
  element('next').addEventListener('click', (e) => transport.step(e.shiftKey ? transport.secondFrames() : 1));
  element('zoom-in').addEventListener('click', () => timeline.zoomBy(1));
  element('zoom-out').addEventListener('click', () => timeline.zoomBy(-1));
  element('zoom-fit').addEventListener('click', () => timeline.setZoom(1));
  element<HTMLInputElement>('loop').addEventListener('change', (e) => (player.loop = (e.target as HTMLInputElement).checked));
  const speed = element<HTMLSelectElement>('speed');
  speed.addEventListener('change', () => transport.setSpeed(Number(speed.value)));
  player.addEventListener('ratechange', () => {
    const rate = String(Math.abs(player.playbackRate));
    if ([...speed.options].some((o) => o.value === rate)) speed.value = rate;
  });

  const commitFrame = (): void => {
    const value = Number(frameInput.value);
    const valid = frameInput.value.trim() !== '' && Number.isInteger(value) && value >= 0 && value <= transport.lastFrame();
    frameInput.setAttribute('aria-invalid', String(!valid));
    if (valid) transport.goToFrame(value);
  };
  const commitTimecode = (): void => {
    const frame = parseTimecode(timecodeInput.value, transport.fps);
    const valid = frame !== undefined && frame <= transport.lastFrame();
    timecodeInput.setAttribute('aria-invalid', String(!valid));
    if (valid) transport.goToFrame(frame);
  };
  for (const [input, commit] of [
    [frameInput, commitFrame],
    [timecodeInput, commitTimecode],
  ] as const) {
    input.addEventListener('change', commit);
    input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') {
        e.preventDefault();
        commit();
      } else if (e.key === 'Escape') input.blur();
    });
    input.addEventListener('blur', () => transport.goToFrame(transport.currentFrame()));
  }
}
