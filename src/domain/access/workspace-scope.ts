import { invalidRequest } from '../domain-error.js';
import { isSystemAdmin, type Principal } from './principal.js';

/**
 * The workspace a /booking/v1 request acts in (CONTRACT §2), one rule for every route: LV1 acts in
 * the workspace it names (or its token's, when it names none and the token carries one); every
 * other level acts in its token's workspace, and naming another one answers 400 naming `workspace`
 * — never an empty page, never the token's own in its place. `path` is where the name was given
 * (`/query/workspace`, `/body/workspace`). Names compare case-insensitively, as uuids do.
 */
export function workspaceScope(actor: Principal, named: string | undefined, path: string): string {
  const asked = named?.toLowerCase();
  if (isSystemAdmin(actor)) {
    const workspace = asked ?? actor.workspace;
    if (!workspace) throw invalidRequest('workspace is required: the token carries none', path);
    return workspace;
  }
  if (asked !== undefined && asked !== actor.workspace) {
    throw invalidRequest('workspace may name only the token\'s own workspace (only LV1 tokens act in others)', path);
  }
  if (!actor.workspace) throw invalidRequest('workspace is required: the token carries none', path);
  return actor.workspace;
}

/**
 * The workspace an LV1 reader may leave open (every workspace: the audit feed, dead letters): the
 * named one, or none; every other level as workspaceScope says.
 */
export function workspaceFilter(actor: Principal, named: string | undefined, path: string): string | undefined {
  if (isSystemAdmin(actor)) return named?.toLowerCase();
  return workspaceScope(actor, named, path);
}
