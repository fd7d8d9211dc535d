import type { FieldType } from './field-type.js';
import type { Condition } from './record-query.js';

/** One allow-listed field: its JSON name is the key in RecordKind.fields. */
export type FieldSpec = {
  column: string;
  type: FieldType;
  nullable?: boolean;
  /** May be left out of a create or replace body; a left-out nullable field is null. */
  optional?: boolean;
  /** Set by the server (generated ids, timestamps); a request body may not carry it. */
  readOnly?: boolean;
  /** The value a create takes when the body leaves the field out (a replace too, unless the field is read-only). */
  default?: unknown;
};

/** A relation that `join` may include and that filters and sorts may reach through (`relation.field`). */
export type RelationSpec = {
  /** A thunk, so that a kind can relate to itself (zone → parentZone). */
  kind: () => RecordKind;
  cardinality: 'one' | 'many';
  /** Pairs [field of this kind, field of the related kind] that are equal for related records. */
  on: [string, string][];
};

/**
 * Everything the generic record layer needs to know about one record kind. Only names listed in
 * `fields` and `relations` ever reach SQL, and only through their configured columns.
 */
export type RecordKind = {
  /** Lower-case singular, the prefix of its event streams: `device` → `device-<workspace>-<id>`. */
  name: string;
  /** Capitalised singular for messages: `Device not found`. */
  label: string;
  table: string;
  /** The id field (a key of `fields`); a sequence makes the server choose numeric ids. */
  id: { field: string; type: 'string' | 'number'; sequence?: string };
  /** The workspace field (a key of `fields`): set = records are workspace-scoped and unique per workspace. */
  workspaceField?: string;
  /** The allow-list, in the order records are answered. */
  fields: Record<string, FieldSpec>;
  /** Secret fields kept in the table that no query may select, filter or sort on. */
  excluded: string[];
  relations: Record<string, RelationSpec>;
  /** Event types appended on create, change and delete. */
  events: { created: string; updated: string; deleted: string };
  /** Further event types that change the record, data as a record event's (a reviewer's status move). */
  alsoUpdatedBy?: string[];
  /** Columns that are not fields, set to the time of the write: both on create, `updated` on every change. */
  rowTimestamps?: { created: string; updated: string };
  /**
   * Columns written beside the events, never in them (secrets, bytes): the record events cannot
   * rebuild them, so a rebuild of the read models carries them over.
   */
  keptColumns?: string[];
  /** Timestamp fields the server sets to the time of the write: both on create, `updated` on every change. */
  timestamps?: { created: string; updated: string };
  /**
   * Lists and reads answer only the records meeting this condition (AND-ed outside the client's);
   * writes still reach every record, so that hidden records can be managed.
   */
  visibleWhen?: Condition;
  /** Ids that collide with fixed routes (PUT /devices/self). */
  reservedIds?: string[];
};

/** A record as answered: JSON field names to JSON values. */
export type RecordJson = Record<string, unknown>;

/** Where a record lives: its workspace (null for kinds without scoping) and its id. */
export type RecordKey = { workspace: string | null; id: string | number };

export function recordKeyOf(kind: RecordKind, record: RecordJson): RecordKey {
  return {
    workspace: kind.workspaceField ? (record[kind.workspaceField] as string) : null,
    id: record[kind.id.field] as string | number,
  };
}

export function streamIdOf(kind: RecordKind, key: RecordKey): string {
  return key.workspace === null ? `${kind.name}-${key.id}` : `${kind.name}-${key.workspace}-${key.id}`;
}

/** The fields every answer carries whatever `fields` asks for: the primary key. */
export function keyFieldsOf(kind: RecordKind): string[] {
  return kind.workspaceField ? [kind.id.field, kind.workspaceField] : [kind.id.field];
}
