import { calculatePKCECodeChallenge } from 'openid-client';
import { forbidden } from '../../domain/domain-error.js';
import type { OAuthProvider } from './oauth-provider.js';
import { providerUnavailable, signInRefused } from './sign-in-failure.js';

export type GithubProviderSettings = { clientId: string; clientSecret: string; authorizeUrl: string; tokenUrl: string; apiUrl: string };

type GithubEmail = { email: string; primary: boolean; verified: boolean };

const timeout = () => AbortSignal.timeout(10_000);

/** GitHub sign-in: plain OAuth 2.0 (no id_token), the e-mail from /user/emails. */
export function createGithubProvider(settings: GithubProviderSettings): OAuthProvider {
  async function call<T>(what: string, url: string, init: RequestInit): Promise<T> {
    let response: Response;
    try {
      response = await fetch(url, { ...init, signal: timeout() });
    } catch (error) {
      throw providerUnavailable('github', `${what}: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!response.ok) throw providerUnavailable('github', `${what} answered ${response.status}`);
    try {
      return (await response.json()) as T;
    } catch {
      throw providerUnavailable('github', `${what} answered no JSON`);
    }
  }

  async function accessToken(code: string, checks: { redirectUri: string; codeVerifier: string }): Promise<string> {
    const body = new URLSearchParams({
      client_id: settings.clientId,
      client_secret: settings.clientSecret,
      code,
      redirect_uri: checks.redirectUri,
      code_verifier: checks.codeVerifier,
    });
    const answer = await call<{ access_token?: unknown; error?: unknown }>('the token endpoint', settings.tokenUrl, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    // GitHub reports a bad code with status 200 and an error field.
    if (answer.error === 'bad_verification_code') throw signInRefused('github', 'the code is invalid or expired');
    if (typeof answer.access_token !== 'string') throw providerUnavailable('github', `the token endpoint answered ${String(answer.error ?? 'no access token')}`);
    return answer.access_token;
  }

  return {
    async authorizationUrl(checks) {
      const url = new URL(settings.authorizeUrl);
      url.search = new URLSearchParams({
        client_id: settings.clientId,
        redirect_uri: checks.redirectUri,
        scope: 'read:user user:email',
        state: checks.state,
        code_challenge: await calculatePKCECodeChallenge(checks.codeVerifier),
        code_challenge_method: 'S256',
      }).toString();
      return url;
    },

    async identity(callback, checks) {
      const token = await accessToken(callback.get('code') ?? '', checks);
      const headers = {
        accept: 'application/vnd.github+json',
        authorization: `Bearer ${token}`,
        'user-agent': 'workspace-booking',
        'x-github-api-version': '2022-11-28',
      };
      const user = await call<{ id?: unknown; login?: unknown; name?: unknown }>('/user', `${settings.apiUrl}/user`, { headers });
      const emails = await call<GithubEmail[]>('/user/emails', `${settings.apiUrl}/user/emails`, { headers });
      if (typeof user.id !== 'number' && typeof user.id !== 'string') throw providerUnavailable('github', '/user answered no id');
      const primary = Array.isArray(emails) ? emails.find((e) => e.primary && e.verified && typeof e.email === 'string') : undefined;
      if (!primary) throw forbidden('github has no verified primary e-mail address for this account');
      const name = typeof user.name === 'string' ? user.name : typeof user.login === 'string' ? user.login : null;
      return { subject: String(user.id), email: primary.email, name };
    },
  };
}
