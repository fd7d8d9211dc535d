import * as oidc from 'openid-client';
import { forbidden } from '../../domain/domain-error.js';
import type { OAuthProvider, ProviderIdentity } from './oauth-provider.js';
import { isLoopbackHttp } from './loopback-url.js';
import { providerUnavailable, signInRefused } from './sign-in-failure.js';

export type OidcProviderSettings = { name: string; issuer: string; clientId: string; clientSecret: string; scope: string };

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** An OpenID Connect provider (Google, or any OIDC_ISSUER) found by discovery: code flow with PKCE S256 and a nonce. */
export function createOidcProvider(settings: OidcProviderSettings): OAuthProvider {
  const { name } = settings;
  let discovered: Promise<oidc.Configuration> | undefined;

  // Discovered on first use and kept; a failed discovery is retried by the next sign-in.
  function configuration(): Promise<oidc.Configuration> {
    discovered ??= oidc
      .discovery(new URL(settings.issuer), settings.clientId, settings.clientSecret, undefined, {
        execute: isLoopbackHttp(settings.issuer) ? [oidc.allowInsecureRequests] : [],
        timeout: 10,
      })
      .catch((error: unknown) => {
        discovered = undefined;
        throw providerUnavailable(name, `discovery: ${messageOf(error)}`);
      });
    return discovered;
  }

  function failure(error: unknown): unknown {
    if (error instanceof oidc.AuthorizationResponseError) return signInRefused(name, error.error);
    if (error instanceof oidc.ResponseBodyError && error.error === 'invalid_grant') return signInRefused(name, 'the code is invalid or expired');
    return providerUnavailable(name, messageOf(error));
  }

  return {
    async authorizationUrl(checks) {
      return oidc.buildAuthorizationUrl(await configuration(), {
        redirect_uri: checks.redirectUri,
        scope: settings.scope,
        state: checks.state,
        nonce: checks.nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(checks.codeVerifier),
        code_challenge_method: 'S256',
      });
    },

    async identity(callback, checks) {
      const config = await configuration();
      // The redirect URI the login sent, whatever host or proxy the callback came through.
      const currentUrl = new URL(checks.redirectUri);
      currentUrl.search = callback.toString();
      let claims: oidc.IDToken;
      let accessToken: string;
      try {
        const tokens = await oidc.authorizationCodeGrant(config, currentUrl, {
          pkceCodeVerifier: checks.codeVerifier,
          expectedState: checks.state,
          expectedNonce: checks.nonce,
          idTokenExpected: true,
        });
        claims = tokens.claims()!;
        accessToken = tokens.access_token;
      } catch (error) {
        throw failure(error);
      }
      let profile: Record<string, unknown> = claims;
      if (typeof claims.email !== 'string') {
        try {
          profile = await oidc.fetchUserInfo(config, accessToken, claims.sub);
        } catch (error) {
          throw failure(error);
        }
      }
      return identityOf(name, claims.sub, profile);
    },
  };
}

/** Only an e-mail the provider has verified may name a publisher: an unverified one could claim someone else's account. */
function identityOf(provider: string, subject: string, profile: Record<string, unknown>): ProviderIdentity {
  const { email, email_verified: verified, name } = profile;
  if (typeof email !== 'string' || email === '') throw forbidden(`${provider} did not share an e-mail address`);
  if (verified !== true && verified !== 'true') throw forbidden(`${provider} has not verified the e-mail address ${email}`);
  return { subject, email, name: typeof name === 'string' ? name : null };
}
