import { OUTPUT_FORMATS, QUALITIES, type Fps } from '@seekframe/composition';
import type { StudioRender } from '../studio/studio-types.js';
import { ApiFailure, studioJson, studioUrl } from './api.js';
import { h } from './dom.js';

/** Rates offered besides the composition's own (value `num/den`). */
const RATES: Array<[string, Fps]> = [
  ['24', { num: 24, den: 1 }],
  ['25', { num: 25, den: 1 }],
  ['30', { num: 30, den: 1 }],
  ['50', { num: 50, den: 1 }],
  ['60', { num: 60, den: 1 }],
  ['23.976', { num: 24000, den: 1001 }],
  ['29.97', { num: 30000, den: 1001 }],
  ['59.94', { num: 60000, den: 1001 }],
];

const fpsValue = (fps: Fps): string => `${fps.num}/${fps.den}`;
const PLAYABLE = new Set(['mp4', 'webm', 'gif']);

export interface RenderPanelHost {
  /** The variables the panel's form holds now (sent with a render). */
  variables(): Record<string, unknown>;
  /** The work area (inclusive frames at the render's rate), or null. */
  range(): { in: number; out: number } | null;
  /** The composition file shown (relative), when it is not the entry. */
  file(): string | undefined;
  /** The frame rate changed: the transport counts frames at it. */
  fpsChanged(fps: Fps): void;
}

/**
 * The render panel: format, quality, fps and the current variables; Render starts the same local
 * render as `seekframe render` on the preview server and follows its progress over SSE; the
 * session's renders are listed newest first, with a player for finished files, their name and
 * size in the project (never an absolute path),
 * errors with their code, and a stale mark once the project changed after the render.
 */
export class RenderPanel {
  private readonly format = h(
    'select',
    { id: 'render-format', name: 'format' },
    ...OUTPUT_FORMATS.map((f) => h('option', { value: f }, f)),
  );
  private readonly quality = h(
    'select',
    { id: 'render-quality', name: 'quality' },
    ...QUALITIES.map((q) => h('option', { value: q, selected: q === 'standard' }, q)),
  );
  private readonly fps = h('select', { id: 'render-fps', name: 'fps' });
  private readonly scale = h(
    'select',
    { id: 'render-scale', name: 'scale', title: 'Pixels per CSS pixel: 2 renders a 1280x720 composition at 2560x1440, drawn sharp' },
    ...['1', '1.5', '2', '3', '4'].map((v) => h('option', { value: v }, `${v}×`)),
  );
  private readonly name = h('input', {
    id: 'render-name',
    name: 'name',
    type: 'text',
    placeholder: 'automatic',
    title: 'File name in renders/ (letters, digits, - _ . and spaces); a name in use gets -2, -3...',
    spellcheck: false,
  });
  private readonly useRange = h('input', { id: 'render-range', name: 'range', type: 'checkbox', disabled: true });
  private readonly rangeText = h('span', { id: 'render-range-text', className: 'muted' }, 'no work area (set it with I and O)');
  private readonly vars = h('pre', { id: 'render-variables' });
  private readonly submit = h('button', { type: 'submit', id: 'render-start' }, 'Render');
  private readonly message = h('p', { id: 'render-message', className: 'muted', attrs: { role: 'status' } });
  private readonly history = h('ol', { id: 'render-history', attrs: { 'aria-label': 'Renders of this session' } });
  private readonly output = h('div', { id: 'render-output' });
  private renders = new Map<string, StudioRender>();
  private rangeShown: { in: number; out: number } | null = null;
  private compositionFps: Fps = { num: 30, den: 1 };

  constructor(
    root: HTMLElement,
    private readonly host: RenderPanelHost,
  ) {
    const form = h(
      'form',
      { id: 'render-form' },
      h('label', { htmlFor: 'render-format' }, 'Format'),
      this.format,
      h('label', { htmlFor: 'render-quality' }, 'Quality'),
      this.quality,
      h('label', { htmlFor: 'render-fps' }, 'FPS'),
      this.fps,
      h('label', { htmlFor: 'render-scale' }, 'Scale'),
      this.scale,
      h('label', { htmlFor: 'render-name' }, 'Name'),
      this.name,
      h('label', { htmlFor: 'render-range' }, 'Range'),
      h('span', {}, this.useRange, ' ', this.rangeText),
      h('span', { className: 'muted' }, 'Variables'),
      h('span', {}),
      this.vars,
      this.submit,
    );
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      void this.start();
    });
    this.fps.addEventListener('change', () => this.host.fpsChanged(this.currentFps));
    root.replaceChildren(form, this.message, this.output, h('h4', {}, 'This session'), this.history);
    this.history.addEventListener('click', (e) => {
      const button = (e.target as Element).closest<HTMLButtonElement>('button[data-action]');
      const id = button?.closest<HTMLElement>('li')?.dataset.renderId;
      if (!button || !id) return;
      if (button.dataset.action === 'play') this.play(id);
      else if (button.dataset.action === 'cancel')
        void studioJson(`renders/${id}`, { method: 'DELETE' }).catch((error: unknown) => this.say(error));
    });
  }

  /** The rate frames are counted at: the one chosen here, else the composition's. */
  get currentFps(): Fps {
    const [num, den] = this.fps.value.split('/').map(Number);
    return num && den ? { num, den } : this.compositionFps;
  }

  /** The composition's own rate (data-fps, else 30): the first, default choice. */
  setCompositionFps(fps: Fps): void {
    const chosen = this.fps.value;
    this.compositionFps = fps;
    const label = Number((fps.num / fps.den).toFixed(3));
    this.fps.replaceChildren(
      h('option', { value: '' }, `${label} (composition)`),
      ...RATES.filter(([, rate]) => fpsValue(rate) !== fpsValue(fps)).map(([text, rate]) => h('option', { value: fpsValue(rate) }, text)),
    );
    this.fps.value = [...this.fps.options].some((o) => o.value === chosen) ? chosen : '';
  }

  /** The work area changed: offer to render only it. */
  showRange(range: { in: number; out: number } | null): void {
    this.useRange.disabled = !range;
    if (!range) this.useRange.checked = false;
    else if (!this.rangeShown) this.useRange.checked = true;
    this.rangeShown = range;
    this.rangeText.textContent = range
      ? `work area: frames ${range.in} to ${range.out} (${range.out - range.in + 1} frames)`
      : 'no work area (set it with I and O)';
  }

  showVariables(values: Record<string, unknown>): void {
    this.vars.textContent = Object.keys(values).length > 0 ? JSON.stringify(values, null, 1) : 'defaults (nothing changed in Variables)';
  }

  /** Reads the session's renders again (after a reload: stale marks). */
  async refresh(): Promise<void> {
    const { renders } = await studioJson<{ renders: StudioRender[] }>('renders');
    this.renders = new Map(renders.map((r) => [r.id, r]));
    this.history.replaceChildren(...renders.map((r) => this.item(r)));
  }

  private async start(): Promise<void> {
    this.submit.disabled = true;
    this.say('');
    try {
      const range = this.useRange.checked ? this.host.range() : null;
      const file = this.host.file();
      const body = {
        format: this.format.value,
        quality: this.quality.value,
        ...(this.fps.value ? { fps: this.currentFps } : {}),
        ...(this.scale.value !== '1' ? { scale: Number(this.scale.value) } : {}),
        ...(this.name.value.trim() ? { name: this.name.value.trim() } : {}),
        ...(range ? { frames: { start: range.in, end: range.out } } : {}),
        ...(file ? { file } : {}),
        variables: this.host.variables(),
      };
      const render = await studioJson<StudioRender>('renders', { method: 'POST', body });
      this.update(render);
      this.follow(render.id);
    } catch (error) {
      this.say(error);
    } finally {
      this.submit.disabled = false;
    }
  }

  private follow(id: string): void {
    const events = new EventSource(studioUrl(`renders/${id}/events`));
    events.addEventListener('render', (e) => {
      const render = JSON.parse((e as MessageEvent<string>).data) as StudioRender;
      this.update(render);
      if (render.status !== 'queued' && render.status !== 'running') events.close();
    });
    events.onerror = () => {
      events.close();
      void this.refresh().catch(() => undefined);
    };
  }

  private update(render: StudioRender): void {
    const before = this.renders.get(render.id);
    this.renders.set(render.id, render);
    const old = this.history.querySelector<HTMLLIElement>(`li[data-render-id="${CSS.escape(render.id)}"]`);
    // Progress of a running render is patched in place: the Cancel button keeps focus and clicks.
    if (
      old &&
      before &&
      before.status === render.status &&
      before.stale === render.stale &&
      (render.status === 'running' || render.status === 'queued')
    ) {
      this.patchProgress(old, render);
      return;
    }
    const item = this.item(render);
    if (old) old.replaceWith(item);
    else this.history.prepend(item);
  }

  private patchProgress(li: HTMLLIElement, r: StudioRender): void {
    const bar = li.querySelector('progress');
    if (bar) {
      bar.value = r.progress;
      bar.setAttribute('aria-label', `Render progress ${Math.round(r.progress * 100)}%`);
    }
    const stage = li.querySelector('.stage');
    if (stage) stage.textContent = stageText(r);
    for (const w of r.warnings.slice(li.querySelectorAll('.warning').length)) li.append(warningLine(w));
  }

  private item(r: StudioRender): HTMLLIElement {
    const rate = r.fps ? Number((r.fps.num / r.fps.den).toFixed(3)) : '';
    const head = h(
      'div',
      {},
      h('strong', {}, r.status),
      ` ${r.format} · ${r.quality}${rate ? ` · ${rate} fps` : ''}${r.scale && r.scale !== 1 ? ` · ${r.scale}×` : ''} · ${new Date(r.createdAt).toLocaleTimeString()}`,
    );
    if (r.stale) head.append(h('span', { className: 'badge', title: 'A project file changed after this render started' }, 'stale'));
    const li = h('li', { dataset: { renderId: r.id, status: r.status, stale: String(r.stale) } }, head);
    if (r.status === 'queued' || r.status === 'running') {
      li.append(
        h('progress', { max: 1, value: r.progress, attrs: { 'aria-label': `Render progress ${Math.round(r.progress * 100)}%` } }),
        h(
          'div',
          {},
          h('span', { className: 'stage' }, stageText(r)),
          ' ',
          h('button', { type: 'button', dataset: { action: 'cancel' } }, 'Cancel'),
        ),
      );
    }
    if (r.status === 'completed' && r.result) {
      li.append(
        h(
          'div',
          { className: 'result' },
          `${r.result.frames} frames${r.frames ? ` (${r.frames.start} to ${r.frames.end})` : ''}, `,
          h('span', { className: 'size' }, sizeText(r.result.size)),
          `, ${(r.result.durationMs / 1000).toFixed(1)} s `,
          PLAYABLE.has(r.format) ? h('button', { type: 'button', dataset: { action: 'play' } }, 'Play') : null,
        ),
      );
    }
    li.append(h('div', { className: 'path', title: `In the project folder: ${r.file}` }, r.file));
    if (r.error)
      li.append(h('div', { className: 'error', dataset: { code: r.error.code } }, h('code', {}, r.error.code), ` ${r.error.message}`));
    if (r.status === 'cancelled' && r.reason) li.append(h('div', {}, r.reason));
    for (const w of r.warnings) li.append(warningLine(w));
    return li;
  }

  private play(id: string): void {
    const render = this.renders.get(id);
    if (!render) return;
    const src = studioUrl(`renders/${id}/file`);
    const media =
      render.format === 'gif'
        ? h('img', { src, alt: `Render ${render.file}` })
        : h('video', { src, controls: true, autoplay: true, attrs: { 'aria-label': `Render ${render.file}` } });
    this.output.replaceChildren(media, h('div', { className: 'path' }, render.file));
  }

  private say(error: unknown): void {
    if (error === '') this.message.textContent = '';
    else if (error instanceof ApiFailure) this.message.replaceChildren(h('code', {}, error.error.code), ` ${error.error.message}`);
    else this.message.textContent = String(error);
  }
}

function sizeText(bytes: number): string {
  return bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${Math.ceil(bytes / 1e3)} kB`;
}

function stageText(r: StudioRender): string {
  const frames = r.totalFrames ? ` ${r.framesRendered}/${r.totalFrames} frames` : '';
  return `${r.status === 'queued' ? 'waiting for the render before it' : (r.stage ?? 'starting')}${frames}`;
}

function warningLine(w: { code: string; message: string }): HTMLElement {
  return h('div', { className: 'muted warning' }, `warning ${w.code}: ${w.message}`);
}
