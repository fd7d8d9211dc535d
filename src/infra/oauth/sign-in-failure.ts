import { DomainError, invalidRequest } from '../../domain/domain-error.js';

/** The provider did not answer as it should: a dependency is down or misconfigured. */
export const providerUnavailable = (provider: string, detail: string) =>
  new DomainError('dependency_unavailable', `the sign-in provider ${provider} failed: ${detail}`);

/** The provider turned this sign-in down (denied consent, an expired or reused code): start again. */
export const signInRefused = (provider: string, error: string) => invalidRequest(`sign-in was refused by ${provider}: ${error}`);
