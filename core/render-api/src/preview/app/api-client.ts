/** Thin fetch wrappers for the page; every call carries the token when one was given. */

export interface VariableDeclaration {
  id: string;
  type: 'string' | 'number' | 'color' | 'boolean' | 'enum';
  label: string;
  default: unknown;
  description?: string;
  placeholder?: string;
  maxLength?: number;
  min?: number;
  max?: number;
  step?: number;
  options?: { value: string | number; label: string }[];
}

export interface CompositionInfo {
  id: string;
  width: number;
  height: number;
  fps: number;
  duration: number;
  variables: VariableDeclaration[];
}

export type Answer<T> = { ok: true; status: number; value: T } | { ok: false; status: number; message: string };

export interface ApiClient {
  composition(): Promise<Answer<CompositionInfo>>;
  startRender(variables: Record<string, unknown>): Promise<Answer<{ id: string; statusUrl: string }>>;
  status(statusUrl: string): Promise<Answer<RenderStatus>>;
  download(url: string): Promise<string>;
  hasToken(): boolean;
}

export interface RenderStatus {
  id: string;
  status: string;
  stage: string | null;
  progress: number;
  framesRendered: number;
  totalFrames: number | null;
  result?: { url: string; key: string; durationMs: number };
}

async function answer<T>(response: Response): Promise<Answer<T>> {
  const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
  if (response.ok) return { ok: true, status: response.status, value: body as T };
  return { ok: false, status: response.status, message: body?.error?.message ?? `HTTP ${response.status}` };
}

export function createApiClient(token: () => string): ApiClient {
  const headers = (extra: Record<string, string> = {}): Record<string, string> =>
    token() ? { ...extra, authorization: `Bearer ${token()}` } : extra;
  return {
    hasToken: () => token() !== '',
    composition: async () => answer(await fetch('/api/composition', { headers: headers() })),
    startRender: async (variables) =>
      answer(
        await fetch('/api/render', {
          method: 'POST',
          headers: headers({ 'content-type': 'application/json', prefer: 'respond-async', 'idempotency-key': crypto.randomUUID() }),
          body: JSON.stringify({ variables }),
        }),
      ),
    status: async (statusUrl) => answer(await fetch(statusUrl, { headers: headers({ accept: 'application/json' }), cache: 'no-store' })),
    async download(url) {
      // With a token a plain link cannot authenticate: fetch the file and link the blob.
      const response = await fetch(url, { headers: headers() });
      if (!response.ok) throw new Error(`download failed: HTTP ${response.status}`);
      return URL.createObjectURL(await response.blob());
    },
  };
}
