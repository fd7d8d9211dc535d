import { forbidden } from '../domain-error.js';

/** The exact words of the contract (§11). */
export const publisherNotVerifiedMessage = 'Publisher is not verified. Please contact the platform administrator.';

/** Spec 4.1 rule 4: only a publisher an administrator has verified may publish. */
export function checkPublisherVerified(publisher: { verified: boolean }): void {
  if (!publisher.verified) throw forbidden(publisherNotVerifiedMessage);
}
