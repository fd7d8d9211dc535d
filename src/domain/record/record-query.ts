import type { Operator } from './query-operators.js';

/** A field reached by a query: a field of the record itself, or of a related record (`relation.field`). */
export type FieldPath = { relation: string | null; field: string };

export type Scalar = string | number | boolean | Date;

/** A search condition after parsing: every field resolved, every value typed. */
export type Condition =
  | { type: 'and'; items: Condition[] }
  | { type: 'or'; items: Condition[] }
  | { type: 'compare'; field: FieldPath; operator: Operator; value: Scalar | Scalar[] | null };

export type SortKey = { field: FieldPath; order: 'ASC' | 'DESC' };

/** A requested relation and which of its fields (null = all allowed ones). */
export type JoinRequest = { relation: string; fields: string[] | null };

/** What read-one operations take: fields, join and cache. */
export type ReadQuery = {
  /** Root fields to answer besides the key fields; null = all allowed ones. */
  fields: string[] | null;
  joins: JoinRequest[];
};

export type ListQuery = ReadQuery & {
  where: Condition | null;
  sort: SortKey[];
  /** LIMIT and OFFSET after the paging rules. */
  take: number;
  skip: number;
};
