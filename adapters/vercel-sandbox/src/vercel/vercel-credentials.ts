import { SeekframeError } from '@seekframe/composition';

/** What `@vercel/sandbox` calls Credentials: all three or none. */
export interface SandboxCredentials {
  token: string;
  teamId: string;
  projectId: string;
}

/**
 * The Sandbox SDK credentials, mapped explicitly from the environment:
 * 1. VERCEL_TOKEN + VERCEL_TEAM_ID + VERCEL_PROJECT_ID (an access token; e.g. the build step or a
 *    machine outside Vercel), or
 * 2. VERCEL_OIDC_TOKEN (set by `vercel env pull` locally and during builds): team and project are
 *    read from the token's own claims.
 * Returns null when neither is set: inside a Vercel function the SDK then takes the OIDC token of
 * the request itself.
 */
export function sandboxCredentialsFromEnv(env: Record<string, string | undefined>): SandboxCredentials | null {
  const token = env.VERCEL_TOKEN?.trim();
  const teamId = env.VERCEL_TEAM_ID?.trim();
  const projectId = env.VERCEL_PROJECT_ID?.trim();
  const given = { VERCEL_TOKEN: token, VERCEL_TEAM_ID: teamId, VERCEL_PROJECT_ID: projectId };
  const missing = Object.entries(given)
    .filter(([, value]) => !value)
    .map(([name]) => name);
  if (missing.length === 0) return { token: token as string, teamId: teamId as string, projectId: projectId as string };
  if (token && missing.length > 0) {
    throw new SeekframeError(
      'invalid-server-options',
      `VERCEL_TOKEN is set but ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not: the Sandbox API needs all three (or VERCEL_OIDC_TOKEN instead). Set them in the project's environment variables.`,
      {
        stage: 'config',
        details: { missing },
      },
    );
  }
  const oidc = env.VERCEL_OIDC_TOKEN?.trim();
  if (oidc) {
    const claims = decodeClaims(oidc);
    if (!claims) {
      throw new SeekframeError(
        'invalid-server-options',
        'VERCEL_OIDC_TOKEN is not a Vercel OIDC token (no owner_id/project_id claims); run `vercel env pull` again or set VERCEL_TOKEN, VERCEL_TEAM_ID and VERCEL_PROJECT_ID.',
        { stage: 'config' },
      );
    }
    return { token: oidc, teamId: claims.owner_id, projectId: claims.project_id };
  }
  return null;
}

function decodeClaims(jwt: string): { owner_id: string; project_id: string } | null {
  const payload = jwt.split('.')[1];
  if (!payload) return null;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    return typeof claims.owner_id === 'string' && typeof claims.project_id === 'string'
      ? { owner_id: claims.owner_id, project_id: claims.project_id }
      : null;
  } catch {
    return null;
  }
}
