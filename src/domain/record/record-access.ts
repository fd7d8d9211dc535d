import { isSystemAdmin, isWorkspaceAdmin, type Principal } from '../access/principal.js';
import { forbidden, invalidRequest } from '../domain-error.js';
import type { RecordKind } from './record-kind.js';
import type { Condition } from './record-query.js';

/**
 * The workspace a caller acts in (null = every workspace, LV1 naming none) and, for reads of a
 * kind that hides records, the condition every visible record meets.
 */
export type RecordScope = { workspace: string | null; visibleWhen?: Condition };

/** Who may read and write a record kind; the device records' rule is the default. */
export type RecordAccess = { read: (actor: Principal) => boolean; write: (actor: Principal) => boolean };

/** Reads LV5+, writes LV2+. */
export const deviceRecordAccess: RecordAccess = { read: () => true, write: isWorkspaceAdmin };

/**
 * LV1 acts in the workspace of the X-Workspace header, else its token's, else in every workspace.
 * Everybody else acts in the token's workspace only.
 */
export function scopeOf(actor: Principal, requestedWorkspace: string | undefined): RecordScope {
  if (isSystemAdmin(actor)) return { workspace: requestedWorkspace ?? actor.workspace };
  if (requestedWorkspace !== undefined && requestedWorkspace !== actor.workspace) {
    throw forbidden('only LV1 may act in another workspace');
  }
  return { workspace: actor.workspace };
}

/** The scope of lists and reads: writes reach the records the kind hides, reads do not. */
export function readScopeOf(kind: RecordKind, scope: RecordScope): RecordScope {
  return kind.visibleWhen ? { ...scope, visibleWhen: kind.visibleWhen } : scope;
}

/** The workspace a new record goes to: the body decides for LV1, the token for everybody else. */
export function checkWorkspaceOfNewRecord(actor: Principal, requestedWorkspace: string | undefined, bodyWorkspace: string): void {
  if (!isSystemAdmin(actor)) {
    if (bodyWorkspace !== actor.workspace) throw forbidden('records can only be created in the token\'s workspace');
    return;
  }
  if (requestedWorkspace !== undefined && requestedWorkspace !== bodyWorkspace) {
    throw invalidRequest('the X-Workspace header and the body\'s workspace differ', 'workspace');
  }
}
