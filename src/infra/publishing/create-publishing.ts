import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { createOAuthProviders } from '../oauth/create-oauth-providers.js';
import { createSignInStateSealer } from '../oauth/sign-in-state.js';
import { createAssetStorage } from './create-asset-storage.js';
import { createPublisherTokens } from './publisher-tokens.js';
import { publisherTokenSecretFor } from './publisher-token-secret.js';
import type { Publishing } from './publishing.js';

/** Production without PUBLISHER_TOKEN_SECRET keeps running, publishing off: services that never publish need no secret. */
export function createPublishing(config: Config, logger: Logger): Publishing {
  const secret = publisherTokenSecretFor(config);
  if (secret === null) {
    const reason = 'publishing is disabled: PUBLISHER_TOKEN_SECRET is not set';
    logger.warn(`${reason}; /publish, /publisher and /auth answer 503`);
    return { enabled: false, reason };
  }
  if (!config.publisherTokenSecret) logger.warn({ dataDir: config.dataDir }, 'development mode: publisher tokens are signed with a secret generated in DATA_DIR');
  return {
    enabled: true,
    tokens: createPublisherTokens(secret, config.auth.rolesClaim),
    signInState: createSignInStateSealer(secret),
    providers: createOAuthProviders(config.oauth),
    assets: createAssetStorage(config),
    strictOwnership: config.appEnv !== 'development',
  };
}
