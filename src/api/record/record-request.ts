import type { Request } from 'express';
import { invalidRequest } from '../../domain/domain-error.js';
import { isStorableText, maxInteger } from '../../domain/record/coerce-field-value.js';
import type { RecordKind } from '../../domain/record/record-kind.js';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The workspace an LV1 caller names with the X-Workspace header. */
export function requestedWorkspaceOf(req: Request): string | undefined {
  const header = req.get('x-workspace');
  if (header === undefined) return undefined;
  if (!uuid.test(header)) throw invalidRequest('X-Workspace must be a workspace uuid', 'X-Workspace');
  return header.toLowerCase();
}

/** The path id, typed as the kind's ids are. */
export function recordIdOf(kind: RecordKind, req: Request): string | number {
  const id = String(req.params.id ?? '');
  if (!isStorableText(id)) throw invalidRequest('Invalid param id. It may not contain a NUL character', 'id');
  if (kind.id.type === 'string') return id;
  if (!/^\d{1,10}$/.test(id)) throw invalidRequest('Invalid param id. Number expected', 'id');
  if (Number(id) > maxInteger) throw invalidRequest(`Invalid param id. At most ${maxInteger} expected`, 'id');
  return Number(id);
}
