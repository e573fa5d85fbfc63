import { PREVIEW_ROUTE } from '../preview-route.js';
import { STUDIO_ROUTE } from '../studio/studio-route.js';

export interface ApiError {
  code: string;
  message: string;
}

/** An answer of the preview or studio API that was not 2xx, with its `{error:{code,message}}`. */
export class ApiFailure extends Error {
  constructor(readonly error: ApiError) {
    super(`${error.code}: ${error.message}`);
  }
}

async function call<T>(url: string, init?: RequestInit): Promise<T> {
  const res = await fetch(url, { cache: 'no-store', ...init });
  const body = (await res.json().catch(() => null)) as ({ error?: ApiError } & T) | null;
  if (!res.ok) throw new ApiFailure(body?.error ?? { code: `http-${res.status}`, message: `${url}: HTTP ${res.status}` });
  return body as T;
}

/** `GET /__seekframe/preview/<name>` */
export const previewJson = <T>(name: string): Promise<T> => call<T>(PREVIEW_ROUTE + name);

/** The studio API (studio/studio-api.ts). */
export const studioJson = <T>(name: string, init?: { method: 'POST' | 'DELETE'; body?: unknown }): Promise<T> =>
  call<T>(
    STUDIO_ROUTE + name,
    init
      ? {
          method: init.method,
          headers: { 'content-type': 'application/json' },
          ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
        }
      : undefined,
  );

export const studioUrl = (name: string): string => STUDIO_ROUTE + name;
