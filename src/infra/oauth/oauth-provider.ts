/** Who signed in, as the provider vouches for them. */
export type ProviderIdentity = { subject: string; email: string; name: string | null };

/** What one sign-in carries from the login redirect to the callback. */
export type SignInChecks = { state: string; nonce: string; codeVerifier: string; redirectUri: string };

/** One sign-in provider: where to send the browser, and who came back. */
export type OAuthProvider = {
  authorizationUrl(checks: SignInChecks): Promise<URL>;
  /** Exchanges the callback's code; refuses with 400 (bad code), 403 (no verified e-mail) or 503 (provider failing). */
  identity(callback: URLSearchParams, checks: SignInChecks): Promise<ProviderIdentity>;
};

export type OAuthProviderName = 'google' | 'github' | 'oidc';
