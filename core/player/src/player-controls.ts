/** What the controls need from the player. */
export interface ControlledPlayer extends EventTarget {
  readonly paused: boolean;
  readonly currentTime: number;
  readonly duration: number;
  play(): void;
  pause(): void;
  seek(t: number): Promise<void>;
}

/** The `controls` bar: play/pause, a scrubber and the time. Kept in sync through player events. */
export function createControls(player: ControlledPlayer): HTMLElement {
  const bar = document.createElement('div');
  bar.className = 'controls';
  bar.setAttribute('part', 'controls');
  const button = document.createElement('button');
  button.type = 'button';
  const range = document.createElement('input');
  range.type = 'range';
  range.min = '0';
  range.step = 'any';
  range.setAttribute('aria-label', 'time');
  const label = document.createElement('span');
  bar.append(button, range, label);

  const sync = (): void => {
    button.textContent = player.paused ? '▶' : '❚❚';
    button.setAttribute('aria-label', player.paused ? 'play' : 'pause');
    range.max = String(player.duration);
    range.value = String(player.currentTime);
    label.textContent = `${player.currentTime.toFixed(2)} / ${player.duration.toFixed(2)} s`;
  };
  button.addEventListener('click', () => (player.paused ? player.play() : player.pause()));
  range.addEventListener('input', () => void player.seek(Number(range.value)).catch(() => undefined));
  for (const type of ['ready', 'timeupdate', 'play', 'pause', 'ended']) player.addEventListener(type, sync);
  sync();
  return bar;
}
