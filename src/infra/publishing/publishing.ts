import type { OAuthProvider, OAuthProviderName } from '../oauth/oauth-provider.js';
import type { SignInStateSealer } from '../oauth/sign-in-state.js';
import type { AssetStorage } from './asset-storage.js';
import type { PublisherTokens } from './publisher-tokens.js';

/** The publishing flow's parts; off (every publishing route answers 503) in production without PUBLISHER_TOKEN_SECRET. */
export type Publishing =
  | {
      enabled: true;
      tokens: PublisherTokens;
      signInState: SignInStateSealer;
      providers: Map<OAuthProviderName, OAuthProvider>;
      assets: AssetStorage;
      /** Spec 4.1 rule 3: outside development a project without an owner accepts no upload. */
      strictOwnership: boolean;
    }
  | { enabled: false; reason: string };

export type EnabledPublishing = Extract<Publishing, { enabled: true }>;
