import type { ApiClient } from './api-client.js';

const POLL_MS = 1000;

/** Starts a render (respond-async), polls its status into the progress bar, then links the file. */
export async function renderWithProgress(
  api: ApiClient,
  variables: Record<string, unknown>,
  view: { progress: HTMLProgressElement; status: HTMLElement; result: HTMLAnchorElement },
): Promise<void> {
  const { progress, status, result } = view;
  result.hidden = true;
  status.className = '';
  status.textContent = 'Starting render…';
  progress.hidden = false;
  progress.value = 0;
  const fail = (message: string): void => {
    status.textContent = message;
    status.className = 'error';
    progress.hidden = true;
  };
  const started = await api.startRender(variables);
  if (!started.ok) return fail(started.message);
  const { statusUrl } = started.value;
  for (;;) {
    const answer = await api.status(statusUrl);
    if (!answer.ok) return fail(answer.message);
    const job = answer.value;
    if (answer.status === 202) {
      progress.value = job.progress;
      const frames = job.totalFrames ? ` ${job.framesRendered}/${job.totalFrames} frames` : '';
      status.textContent = `${job.status}${job.stage ? ` (${job.stage})` : ''}${frames}`;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      continue;
    }
    progress.value = 1;
    const url = job.result?.url ?? statusUrl;
    const sameOrigin = new URL(url, location.href).origin === location.origin;
    result.href = api.hasToken() && sameOrigin ? await api.download(url) : url;
    result.textContent = `Download the video (${((job.result?.durationMs ?? 0) / 1000).toFixed(1)} s render)`;
    result.setAttribute('download', `${job.id}.mp4`);
    result.hidden = false;
    status.textContent = 'Done.';
    return;
  }
}
