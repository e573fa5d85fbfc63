import type { SeekframePlayer } from '@seekframe/player';
import { element } from './dom.js';
import type { TimelineView } from './timeline-view.js';
import { parseTimecode } from './timecode.js';
import type { Transport } from './transport.js';

/** The transport bar's buttons, frame and timecode boxes, speed and loop, and the zoom buttons. */
export function bindTransportControls(transport: Transport, player: SeekframePlayer, timeline: TimelineView): void {
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
