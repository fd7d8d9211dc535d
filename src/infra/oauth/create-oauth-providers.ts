import type { OAuthConfig } from '../config.js';
import { createGithubProvider } from './github-provider.js';
import type { OAuthProvider, OAuthProviderName } from './oauth-provider.js';
import { createOidcProvider } from './oidc-provider.js';

/** The configured providers only; a provider left unconfigured is absent (its routes answer 404). */
export function createOAuthProviders(config: OAuthConfig): Map<OAuthProviderName, OAuthProvider> {
  const providers = new Map<OAuthProviderName, OAuthProvider>();
  if (config.google) providers.set('google', createOidcProvider({ name: 'google', scope: 'openid email profile', ...config.google }));
  if (config.github) providers.set('github', createGithubProvider(config.github));
  if (config.oidc) providers.set('oidc', createOidcProvider({ name: 'oidc', ...config.oidc }));
  return providers;
}
