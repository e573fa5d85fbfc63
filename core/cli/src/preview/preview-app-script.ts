import { PREVIEW_ROUTE } from './preview-route.js';

/**
 * The preview page's browser script (served as `app.js`): timeline, variables panel generated
 * from the declarations, lint list, and live reload over SSE. Plain JS in a string so the CLI
 * ships it without a bundling step; it only talks to `<seekframe-player>` and the preview routes.
 */
export const PREVIEW_APP_SCRIPT = `
const ROUTE = ${JSON.stringify(PREVIEW_ROUTE)};
const $ = (id) => document.getElementById(id);
const player = $('player');
const form = $('variables');
let declarations = [];
let frameStep = 1 / 30;
let stepTarget = null;
let values = {};
let pushTimer;

const getJson = async (name) => {
  const res = await fetch(ROUTE + name, { cache: 'no-store' });
  if (!res.ok) throw new Error(name + ': HTTP ' + res.status);
  return res.json();
};

function fitPlayer(info) {
  const room = $('stage').clientWidth || info.width;
  player.setAttribute('width', String(Math.min(info.width, room)));
}

async function loadProject() {
  const info = await getJson('project.json');
  declarations = info.variables;
  frameStep = 1 / (info.fps || 30);
  // Keep what the user typed for variables that still exist after an edit.
  values = Object.fromEntries(Object.entries(values).filter(([id]) => declarations.some((d) => d.id === id)));
  renderPanel();
  fitPlayer(info);
  if (player.getAttribute('src') !== info.entry) player.setAttribute('src', info.entry);
  return info;
}

function field(decl) {
  const wrap = document.createElement('label');
  wrap.className = 'field';
  wrap.dataset.variable = decl.id;
  const title = document.createElement('span');
  title.textContent = decl.label || decl.id;
  wrap.append(title);
  const current = decl.id in values ? values[decl.id] : decl.default;
  let input;
  if (decl.type === 'enum') {
    input = document.createElement('select');
    for (const option of decl.options) {
      const el = document.createElement('option');
      el.value = JSON.stringify(option.value);
      el.textContent = option.label;
      el.selected = option.value === current;
      input.append(el);
    }
  } else {
    input = document.createElement('input');
    if (decl.type === 'string') {
      input.type = 'text';
      input.value = current;
      if (decl.placeholder) input.placeholder = decl.placeholder;
      if (decl.maxLength) input.maxLength = decl.maxLength;
    } else if (decl.type === 'number') {
      input.type = 'number';
      input.value = String(current);
      for (const key of ['min', 'max', 'step']) if (decl[key] !== undefined) input[key] = String(decl[key]);
      if (decl.step === undefined) input.step = 'any';
    } else if (decl.type === 'color') {
      input.type = 'color';
      input.value = current;
    } else if (decl.type === 'boolean') {
      input.type = 'checkbox';
      input.checked = Boolean(current);
    }
  }
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

function readInput(decl, input) {
  if (decl.type === 'number') return input.value === '' ? decl.default : Number(input.value);
  if (decl.type === 'boolean') return input.checked;
  if (decl.type === 'enum') return JSON.parse(input.value);
  return input.value;
}

function renderPanel() {
  form.replaceChildren(...declarations.map(field));
  if (declarations.length === 0) form.textContent = 'This composition declares no variables.';
}

function schedulePush() {
  clearTimeout(pushTimer);
  // Typing reloads the composition once per pause, not once per key.
  pushTimer = setTimeout(() => { player.variables = { ...values }; }, 120);
}

async function loadLint() {
  const report = await getJson('lint.json');
  const list = $('lint');
  const items = report.findings.map((f) => {
    const li = document.createElement('li');
    li.className = f.severity;
    li.dataset.rule = f.rule;
    li.textContent = f.file + ':' + f.line + ':' + f.column + ' ' + f.severity + ' ' + f.rule + ': ' + f.message;
    return li;
  });
  if (items.length === 0) {
    const ok = document.createElement('li');
    ok.className = 'ok';
    ok.textContent = 'No lint problems.';
    items.push(ok);
  }
  list.replaceChildren(...items);
}

function showTime(t) {
  $('scrub').max = String(player.duration);
  $('scrub').value = String(t);
  $('time').textContent = t.toFixed(2) + ' / ' + player.duration.toFixed(2) + ' s';
}

player.addEventListener('timeupdate', (e) => showTime(e.detail.currentTime));
player.addEventListener('ready', () => { $('status').textContent = 'ready'; showTime(player.currentTime); });
player.addEventListener('play', () => { $('play').textContent = 'Pause'; });
player.addEventListener('pause', () => { $('play').textContent = 'Play'; });
player.addEventListener('error', (e) => { $('status').textContent = 'error: ' + e.detail.message; });
$('play').addEventListener('click', () => (player.paused ? player.play() : player.pause()));
$('scrub').addEventListener('input', () => player.seek(Number($('scrub').value)).catch(() => {}));
$('loop').addEventListener('change', () => { player.loop = $('loop').checked; });
$('reset').addEventListener('click', () => { values = {}; renderPanel(); player.variables = {}; });

// Space plays/pauses, arrows step one frame (shift: one second), as in video editors.
document.addEventListener('keydown', (e) => {
  if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement || e.target instanceof HTMLButtonElement) return;
  if (e.key === ' ') player.paused ? player.play() : player.pause();
  else if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
    const step = (e.shiftKey ? 1 : frameStep) * (e.key === 'ArrowRight' ? 1 : -1);
    player.pause();
    // Quick presses add up even while the previous seek is still painting.
    const target = Math.min(Math.max(0, (stepTarget ?? player.currentTime) + step), player.duration);
    stepTarget = target;
    player.seek(target).catch(() => {}).finally(() => { if (stepTarget === target) stepTarget = null; });
  } else return;
  e.preventDefault();
});

const events = new EventSource(ROUTE + 'events');
events.addEventListener('reload', async () => {
  $('status').textContent = 'reloading…';
  try {
    await loadProject();
    player.reload();
  } finally {
    document.body.dataset.reloads = String(Number(document.body.dataset.reloads) + 1);
    loadLint().catch(() => {});
  }
});

loadProject().then(loadLint).catch((error) => { $('status').textContent = String(error); });
`;
