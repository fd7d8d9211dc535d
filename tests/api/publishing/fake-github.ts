import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeGithub = {
  url: string;
  env: Record<string, string>;
  /** What /user/emails answers. */
  emails: { email: string; primary: boolean; verified: boolean }[];
  /** A status the API endpoints answer instead of 200, or null. */
  apiFailure: number | null;
  close(): Promise<void>;
};

const clientId = 'gh-client';
const clientSecret = 'gh-secret';
const accessToken = 'gho_fake_access_token';

/**
 * GitHub's OAuth and API endpoints on loopback, as GitHub behaves: a bad code is answered 200 with
 * an error field, the API needs a user agent, PKCE S256 is checked.
 */
export async function startFakeGithub(): Promise<FakeGithub> {
  const challenges = new Map<string, string>();
  let codes = 0;
  const fake: Omit<FakeGithub, 'url' | 'env' | 'close'> = {
    emails: [],
    apiFailure: null,
  };
  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://github.test');
    if (req.method === 'GET' && url.pathname === '/login/oauth/authorize') {
      const code = `code-${++codes}`;
      challenges.set(code, url.searchParams.get('code_challenge') ?? '');
      const back = new URL(url.searchParams.get('redirect_uri')!);
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      res.writeHead(302, { location: back.href }).end();
      return;
    }
    if (req.method === 'POST' && url.pathname === '/login/oauth/access_token') {
      let text = '';
      req.on('data', (c: Buffer) => (text += c.toString()));
      req.on('end', () => {
        const form = new URLSearchParams(text);
        if (form.get('client_id') !== clientId || form.get('client_secret') !== clientSecret) return json(res, 200, { error: 'incorrect_client_credentials' });
        const challenge = challenges.get(form.get('code') ?? '');
        challenges.delete(form.get('code') ?? '');
        const verifier = form.get('code_verifier') ?? '';
        if (challenge === undefined || createHash('sha256').update(verifier).digest('base64url') !== challenge) {
          return json(res, 200, { error: 'bad_verification_code', error_description: 'The code passed is incorrect or expired.' });
        }
        json(res, 200, { access_token: accessToken, token_type: 'bearer', scope: 'read:user,user:email' });
      });
      return;
    }
    if (req.headers.authorization !== `Bearer ${accessToken}` || !req.headers['user-agent']) return json(res, 401, { message: 'Requires authentication' });
    if (fake.apiFailure) return json(res, fake.apiFailure, { message: 'Server Error' });
    if (url.pathname === '/api/user') return json(res, 200, { id: 583231, login: 'octocat', name: 'The Octocat' });
    if (url.pathname === '/api/user/emails') return json(res, 200, fake.emails);
    json(res, 404, { message: 'Not Found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(fake, {
    url,
    env: {
      GITHUB_CLIENT_ID: clientId,
      GITHUB_CLIENT_SECRET: clientSecret,
      GITHUB_AUTHORIZE_URL: `${url}/login/oauth/authorize`,
      GITHUB_TOKEN_URL: `${url}/login/oauth/access_token`,
      GITHUB_API_URL: `${url}/api`,
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  });
}
