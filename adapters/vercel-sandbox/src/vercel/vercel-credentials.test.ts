import { describe, expect, it } from 'vitest';
import { sandboxCredentialsFromEnv } from './vercel-credentials.js';

const jwt = (claims: Record<string, unknown>): string => `e30.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.sig`;

describe('sandboxCredentialsFromEnv', () => {
  it('an access token with team and project is passed as is', () => {
    expect(
      sandboxCredentialsFromEnv({
        VERCEL_TOKEN: 't',
        VERCEL_TEAM_ID: 'team_1',
        VERCEL_PROJECT_ID: 'prj_1',
        VERCEL_OIDC_TOKEN: jwt({ owner_id: 'x', project_id: 'y' }),
      }),
    ).toEqual({
      token: 't',
      teamId: 'team_1',
      projectId: 'prj_1',
    });
  });

  it('an OIDC token gives team and project from its claims', () => {
    const token = jwt({ owner_id: 'team_2', project_id: 'prj_2', exp: 1 });
    expect(sandboxCredentialsFromEnv({ VERCEL_OIDC_TOKEN: token })).toEqual({ token, teamId: 'team_2', projectId: 'prj_2' });
  });

  it('a token without team or project is refused, naming what is missing', () => {
    expect(() => sandboxCredentialsFromEnv({ VERCEL_TOKEN: 't', VERCEL_TEAM_ID: 'team_1' })).toThrow(/VERCEL_PROJECT_ID is not/);
    expect(() => sandboxCredentialsFromEnv({ VERCEL_OIDC_TOKEN: 'not-a-jwt' })).toThrow(/not a Vercel OIDC token/);
  });

  it('nothing set: null (inside a function the SDK uses the request OIDC token)', () => {
    expect(sandboxCredentialsFromEnv({})).toBeNull();
  });
});
