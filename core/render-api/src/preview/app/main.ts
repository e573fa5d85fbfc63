/**
 * The preview page's script (bundled to dist/preview/app.js by scripts/build-preview.mjs):
 * sizes <seekframe-player> from /api/composition, builds the variables form from the
 * declarations, and renders through /api/render with progress polling.
 */
import { buildVariablesForm } from './variables-form.js';
import { createApiClient, type CompositionInfo } from './api-client.js';
import { renderWithProgress } from './render-with-progress.js';

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

interface PlayerElement extends HTMLElement {
  variables: Record<string, unknown> | undefined;
}

async function start(): Promise<void> {
  const status = $('status');
  const api = createApiClient(() => sessionStorage.getItem('seekframe-token') ?? '');
  const tokenForm = $<HTMLFormElement>('token-form');
  const tokenInput = $<HTMLInputElement>('token');

  let info: CompositionInfo;
  for (;;) {
    const answer = await api.composition();
    if (answer.ok) {
      info = answer.value;
      break;
    }
    if (answer.status !== 401) {
      status.textContent = answer.message;
      status.className = 'error';
      return;
    }
    // The deployment has a RENDER_API_TOKEN: ask for it once, keep it for this tab.
    tokenForm.hidden = false;
    status.textContent = 'This deployment needs its API token.';
    await new Promise<void>((resolve) => {
      tokenForm.addEventListener(
        'submit',
        (event) => {
          event.preventDefault();
          sessionStorage.setItem('seekframe-token', tokenInput.value.trim());
          resolve();
        },
        { once: true },
      );
    });
    status.textContent = '';
  }
  tokenForm.hidden = true;
  $('title').textContent = info.id;

  const stage = $('stage');
  const player = document.createElement('seekframe-player') as PlayerElement;
  player.setAttribute('controls', '');
  player.setAttribute('src', '/preview/composition/index.html');
  const fit = (): void => {
    // The composition's own size decides the aspect; the page only scales it down to fit.
    const width = Math.min(info.width, stage.clientWidth || info.width);
    player.setAttribute('width', String(Math.round(width)));
    player.setAttribute('height', String(Math.round((width * info.height) / info.width)));
  };
  // biome-ignore lint/suspicious/noFocusedTests: fit() sizes the player to the page; this is not a test file.
  fit();
  addEventListener('resize', fit);
  // Counts loads (each variables edit reloads the preview), for people and for the contract suite.
  player.addEventListener('ready', () => {
    document.body.dataset.playerReady = String(Number(document.body.dataset.playerReady ?? '0') + 1);
  });
  player.addEventListener('error', (event) => {
    const detail = (event as unknown as CustomEvent<{ message?: string }>).detail;
    status.textContent = `Preview: ${detail?.message ?? 'failed'}`;
    status.className = 'error';
  });
  stage.append(player);

  const form = $<HTMLFormElement>('variables');
  const values = buildVariablesForm(form, info.variables, (next) => {
    player.variables = next;
  });

  const button = $<HTMLButtonElement>('render');
  button.disabled = false;
  button.addEventListener('click', () => {
    button.disabled = true;
    renderWithProgress(api, values(), {
      progress: $<HTMLProgressElement>('progress'),
      status,
      result: $<HTMLAnchorElement>('result'),
    }).finally(() => {
      button.disabled = false;
    });
  });
}

void start();
