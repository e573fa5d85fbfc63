/**
 * The preview page's browser code (served as `app.js`, bundled by scripts/bundle-preview-app.mjs
 * into dist/preview/preview-app.js): timeline, a variables panel generated from the declarations,
 * the lint list, and live reload over SSE. It talks only to `<seekframe-player>` and the preview
 * routes. Type-checked against the DOM (src/preview/browser/tsconfig.json); no `node:` imports.
 */
import type { VariableDeclaration } from '@seekframe/composition';
import type { SeekframePlayer } from '@seekframe/player';
import { PREVIEW_ROUTE } from '../preview-route.js';

/** `project.json` (core/cli/src/preview/project-info.ts), the parts this page reads. */
interface ProjectInfo {
  entry: string;
  width: number;
  fps?: number;
  variables: VariableDeclaration[];
}

/** `lint.json`: the `seekframe lint --json` report, the parts this page reads. */
interface LintInfo {
  findings: Array<{ file: string; line: number; column: number; severity: string; rule: string; message: string }>;
}

type FieldInput = HTMLInputElement | HTMLSelectElement;

function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`the preview page has no #${id}`);
  return found as T;
}

const player = element<SeekframePlayer>('player');
const form = element<HTMLFormElement>('variables');
const scrub = element<HTMLInputElement>('scrub');
const status = element('status');
let declarations: VariableDeclaration[] = [];
let frameStep = 1 / 30;
let stepTarget: number | null = null;
let values: Record<string, unknown> = {};
let pushTimer: ReturnType<typeof setTimeout> | undefined;

async function getJson<T>(name: string): Promise<T> {
  const res = await fetch(PREVIEW_ROUTE + name, { cache: 'no-store' });
  if (!res.ok) throw new Error(`${name}: HTTP ${res.status}`);
  return (await res.json()) as T;
}

function fitPlayer(info: ProjectInfo): void {
  const room = element('stage').clientWidth || info.width;
  player.setAttribute('width', String(Math.min(info.width, room)));
}

async function loadProject(): Promise<ProjectInfo> {
  const info = await getJson<ProjectInfo>('project.json');
  declarations = info.variables;
  frameStep = 1 / (info.fps || 30);
  // Keep what the user typed for variables that still exist after an edit.
  values = Object.fromEntries(Object.entries(values).filter(([id]) => declarations.some((d) => d.id === id)));
  renderPanel();
  fitPlayer(info);
  if (player.getAttribute('src') !== info.entry) player.setAttribute('src', info.entry);
  return info;
}

function createInput(decl: VariableDeclaration, current: unknown): FieldInput {
  if (decl.type === 'enum') {
    const select = document.createElement('select');
    for (const option of decl.options) {
      const el = document.createElement('option');
      el.value = JSON.stringify(option.value);
      el.textContent = option.label;
      el.selected = option.value === current;
      select.append(el);
    }
    return select;
  }
  const input = document.createElement('input');
  if (decl.type === 'string') {
    input.type = 'text';
    input.value = String(current);
    if (decl.placeholder) input.placeholder = decl.placeholder;
    if (decl.maxLength) input.maxLength = decl.maxLength;
  } else if (decl.type === 'number') {
    input.type = 'number';
    input.value = String(current);
    if (decl.min !== undefined) input.min = String(decl.min);
    if (decl.max !== undefined) input.max = String(decl.max);
    input.step = decl.step === undefined ? 'any' : String(decl.step);
  } else if (decl.type === 'color') {
    input.type = 'color';
    input.value = String(current);
  } else if (decl.type === 'boolean') {
    input.type = 'checkbox';
    input.checked = Boolean(current);
  }
  return input;
}

function field(decl: VariableDeclaration): HTMLLabelElement {
  const wrap = document.createElement('label');
  wrap.className = 'field';
  wrap.dataset.variable = decl.id;
  const title = document.createElement('span');
  title.textContent = decl.label || decl.id;
  wrap.append(title);
  const input = createInput(decl, decl.id in values ? values[decl.id] : decl.default);
  input.name = decl.id;
  input.addEventListener(decl.type === 'string' || decl.type === 'number' ? 'input' : 'change', () => {
    values[decl.id] = readInput(decl, input);
    schedulePush();
  });
  const row = document.createElement('span');
  row.append(input);
  if (decl.type === 'number' && decl.unit) {
    const unit = document.createElement('span');
    unit.className = 'unit';
    unit.textContent = decl.unit;
    row.append(unit);
  }
  wrap.append(row);
  if (decl.description) {
    const hint = document.createElement('span');
    hint.className = 'hint';
    hint.textContent = decl.description;
    wrap.append(hint);
  }
  return wrap;
}

function readInput(decl: VariableDeclaration, input: FieldInput): unknown {
  if (decl.type === 'number') return input.value === '' ? decl.default : Number(input.value);
  if (decl.type === 'boolean') return (input as HTMLInputElement).checked;
  if (decl.type === 'enum') return JSON.parse(input.value) as unknown;
  return input.value;
}

function renderPanel(): void {
  form.replaceChildren(...declarations.map(field));
  if (declarations.length === 0) form.textContent = 'This composition declares no variables.';
}

function schedulePush(): void {
  clearTimeout(pushTimer);
  // Typing reloads the composition once per pause, not once per key.
  pushTimer = setTimeout(() => {
    player.variables = { ...values };
  }, 120);
}

async function loadLint(): Promise<void> {
  const report = await getJson<LintInfo>('lint.json');
  const items = report.findings.map((f) => {
    const li = document.createElement('li');
    li.className = f.severity;
    li.dataset.rule = f.rule;
    li.textContent = `${f.file}:${f.line}:${f.column} ${f.severity} ${f.rule}: ${f.message}`;
    return li;
  });
  if (items.length === 0) {
    const ok = document.createElement('li');
    ok.className = 'ok';
    ok.textContent = 'No lint problems.';
    items.push(ok);
  }
  element('lint').replaceChildren(...items);
}

function showTime(t: number): void {
  scrub.max = String(player.duration);
  scrub.value = String(t);
  element('time').textContent = `${t.toFixed(2)} / ${player.duration.toFixed(2)} s`;
}

const togglePlay = (): void => (player.paused ? player.play() : player.pause());

player.addEventListener('timeupdate', (e) => showTime((e as CustomEvent<{ currentTime: number }>).detail.currentTime));
player.addEventListener('ready', () => {
  status.textContent = 'ready';
  showTime(player.currentTime);
});
player.addEventListener('play', () => (element('play').textContent = 'Pause'));
player.addEventListener('pause', () => (element('play').textContent = 'Play'));
player.addEventListener('error', (e) => (status.textContent = `error: ${(e as unknown as CustomEvent<{ message: string }>).detail.message}`));
element('play').addEventListener('click', togglePlay);
scrub.addEventListener('input', () => void player.seek(Number(scrub.value)).catch(() => undefined));
element<HTMLInputElement>('loop').addEventListener('change', (e) => (player.loop = (e.target as HTMLInputElement).checked));
element('reset').addEventListener('click', () => {
  values = {};
  renderPanel();
  player.variables = {};
});

// Space plays/pauses, arrows step one frame (shift: one second), as in video editors.
document.addEventListener('keydown', (e) => {
  if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement || e.target instanceof HTMLButtonElement) return;
  if (e.key === ' ') togglePlay();
  else if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
    const step = (e.shiftKey ? 1 : frameStep) * (e.key === 'ArrowRight' ? 1 : -1);
    player.pause();
    // Quick presses add up even while the previous seek is still painting.
    const target = Math.min(Math.max(0, (stepTarget ?? player.currentTime) + step), player.duration);
    stepTarget = target;
    player
      .seek(target)
      .catch(() => undefined)
      .finally(() => {
        if (stepTarget === target) stepTarget = null;
      });
  } else return;
  e.preventDefault();
});

const events = new EventSource(`${PREVIEW_ROUTE}events`);
events.addEventListener('reload', async () => {
  status.textContent = 'reloading…';
  try {
    await loadProject();
    player.reload();
  } finally {
    document.body.dataset.reloads = String(Number(document.body.dataset.reloads) + 1);
    loadLint().catch(() => undefined);
  }
});

loadProject()
  .then(loadLint)
  .catch((error: unknown) => (status.textContent = String(error)));
