import { handle } from '../../../lib/render-app';

// Rendered per request on Node (Chromium runs in the sandbox, not here).
export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
// A sync render answers 202 + statusUrl before this (RENDER_SYNC_TIMEOUT_MS, default 270 s).
export const maxDuration = 300;

export const GET = handle;
export const HEAD = handle;
export const POST = handle;
export const DELETE = handle;
