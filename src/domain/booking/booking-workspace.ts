import type { Principal } from '../access/principal.js';
import { invalidRequest } from '../domain-error.js';

/**
 * The workspace whose registered resource a new booking or series is made on. Only LV1 may name
 * one (any workspace); every other level books in its token's workspace and may not name any, not
 * even its own, so that the body never decides where a booking lands.
 */
export function bookingWorkspace(actor: Principal, named: string | undefined): string {
  if (named !== undefined && actor.level !== 1) {
    throw invalidRequest('only LV1 tokens may name a workspace; bookings are made in the token\'s workspace', '/body/workspace');
  }
  const workspace = named?.toLowerCase() ?? actor.workspace;
  if (!workspace) throw invalidRequest('workspace is required: the token carries none', '/body/workspace');
  return workspace;
}
