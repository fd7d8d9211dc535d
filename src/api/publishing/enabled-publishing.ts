import { DomainError } from '../../domain/domain-error.js';
import type { EnabledPublishing, Publishing } from '../../infra/publishing/publishing.js';

/** The publishing parts, or 503 with the reason when publishing is off. */
export function enabledPublishing(publishing: Publishing): EnabledPublishing {
  if (!publishing.enabled) throw new DomainError('dependency_unavailable', publishing.reason);
  return publishing;
}
