import type { FieldType } from './field-type.js';

export type Operator =
  | '$eq' | '$ne' | '$gt' | '$lt' | '$gte' | '$lte'
  | '$starts' | '$ends' | '$cont' | '$excl'
  | '$in' | '$notin' | '$isnull' | '$notnull' | '$between'
  | '$eqL' | '$neL' | '$startsL' | '$endsL' | '$contL' | '$exclL' | '$inL' | '$notinL';

/** What an operator takes: one value, a list of values, or nothing. */
export type OperatorArity = 'one' | 'list' | 'none';

type OperatorSpec = { arity: OperatorArity; types: ReadonlySet<FieldType> };

const scalars = new Set<FieldType>(['string', 'uuid', 'number', 'integer', 'boolean', 'timestamp']);
const ordered = new Set<FieldType>(['string', 'uuid', 'number', 'integer', 'timestamp']);
const text = new Set<FieldType>(['string']);
const all = new Set<FieldType>([...scalars, 'object', 'string[]']);

export const operators: Record<Operator, OperatorSpec> = {
  $eq: { arity: 'one', types: scalars },
  $ne: { arity: 'one', types: scalars },
  $gt: { arity: 'one', types: ordered },
  $lt: { arity: 'one', types: ordered },
  $gte: { arity: 'one', types: ordered },
  $lte: { arity: 'one', types: ordered },
  $starts: { arity: 'one', types: text },
  $ends: { arity: 'one', types: text },
  $cont: { arity: 'one', types: text },
  $excl: { arity: 'one', types: text },
  $in: { arity: 'list', types: scalars },
  $notin: { arity: 'list', types: scalars },
  $isnull: { arity: 'none', types: all },
  $notnull: { arity: 'none', types: all },
  $between: { arity: 'list', types: ordered },
  $eqL: { arity: 'one', types: text },
  $neL: { arity: 'one', types: text },
  $startsL: { arity: 'one', types: text },
  $endsL: { arity: 'one', types: text },
  $contL: { arity: 'one', types: text },
  $exclL: { arity: 'one', types: text },
  $inL: { arity: 'list', types: text },
  $notinL: { arity: 'list', types: text },
};

/** Only the fifteen base operators have a short form without `$` (the L forms do not). */
const shortForms = ['eq', 'ne', 'gt', 'lt', 'gte', 'lte', 'starts', 'ends', 'cont', 'excl', 'in', 'notin', 'isnull', 'notnull', 'between'];

const accepted = new Map<string, Operator>([
  ...shortForms.map((s) => [s, `$${s}` as Operator] as const),
  ...(Object.keys(operators) as Operator[]).map((o) => [o, o] as const),
]);

/** The wording of the original library, listing every accepted spelling. */
export const invalidOperatorMessage = `Invalid comparison operator. ${[...accepted.keys()].join(',')} expected`;

export function operatorOf(name: string): Operator | null {
  return accepted.get(name) ?? null;
}
