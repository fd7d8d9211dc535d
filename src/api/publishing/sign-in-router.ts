import { timingSafeEqual } from 'node:crypto';
import { Router, type Request } from 'express';
import { randomNonce, randomPKCECodeVerifier, randomState } from 'openid-client';
import { signInPublisher } from '../../commands/catalog/sign-in-publisher.js';
import { invalidRequest, notFound } from '../../domain/domain-error.js';
import type { OAuthProviderName } from '../../infra/oauth/oauth-provider.js';
import { signInRefused } from '../../infra/oauth/sign-in-failure.js';
import { signInLifetimeMs, type SignInState } from '../../infra/oauth/sign-in-state.js';
import type { Services } from '../../services.js';
import { enabledPublishing } from './enabled-publishing.js';

const cookieName = 'publisher_sign_in';
const cookiePath = '/auth/';

function cookieOf(req: Request): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === cookieName) return value.join('=');
  }
  return null;
}

/** Constant-time equality; the byte lengths are compared first, as timingSafeEqual requires. */
function sameText(a: string, b: string): boolean {
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && timingSafeEqual(x, y);
}

/** GET /auth/{provider}/login and /callback: publisher sign-in (contract §11). */
export function signInRouter(services: Services): Router {
  const router = Router();

  const providerOf = (req: Request) => {
    const publishing = enabledPublishing(services.publishing);
    const name = req.params.provider as OAuthProviderName;
    const provider = publishing.providers.get(name);
    if (!provider) throw notFound(`sign-in provider "${req.params.provider}"`);
    return { publishing, name, provider };
  };

  router.get('/auth/:provider/login', async (req, res) => {
    const { publishing, name, provider } = providerOf(req);
    const base = services.config.oauth.redirectBaseUrl ?? `${req.protocol}://${req.get('host')}`;
    const state: SignInState = {
      provider: name,
      state: randomState(),
      nonce: randomNonce(),
      codeVerifier: randomPKCECodeVerifier(),
      redirectUri: `${base}/auth/${name}/callback`,
      expiresAt: Date.now() + signInLifetimeMs,
    };
    const url = await provider.authorizationUrl(state);
    res.cookie(cookieName, publishing.signInState.seal(state), {
      httpOnly: true,
      sameSite: 'lax',
      secure: state.redirectUri.startsWith('https:'),
      path: cookiePath,
      maxAge: signInLifetimeMs,
    });
    res.set('cache-control', 'no-store').redirect(302, url.href);
  });

  router.get('/auth/:provider/callback', async (req, res) => {
    const { publishing, name, provider } = providerOf(req);
    const sealed = cookieOf(req);
    // One callback per sign-in: the state is spent whatever comes of it.
    res.clearCookie(cookieName, { path: cookiePath });
    const signIn = sealed ? publishing.signInState.open(sealed, Date.now()) : null;
    if (!signIn || signIn.provider !== name) throw invalidRequest(`no sign-in in progress in this browser; start again at /auth/${name}/login`);
    const query = new URL(req.originalUrl, 'http://callback').searchParams;
    const state = query.get('state');
    if (!state || !sameText(state, signIn.state)) throw invalidRequest('state does not match the sign-in in progress', '/query/state');
    const error = query.get('error');
    if (error) throw signInRefused(name, error);
    if (!query.get('code')) throw invalidRequest('code is required', '/query/code');
    const identity = await provider.identity(query, signIn);
    res.set('cache-control', 'no-store').json(await signInPublisher(services, publishing.tokens, name, identity));
  });

  return router;
}
