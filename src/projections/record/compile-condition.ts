import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Operator } from '../../domain/record/query-operators.js';
import type { RecordKind } from '../../domain/record/record-kind.js';
import type { Condition, Scalar } from '../../domain/record/record-query.js';
import { columnRef } from './record-columns.js';

// The record layer builds queries over tables chosen at run time.
type AnyBuilder = ExpressionBuilder<any, any>;

/** A parsed condition as a Kysely expression: identifiers only from the kind's columns, values always bound. */
export function compileCondition(eb: AnyBuilder, kind: RecordKind, condition: Condition): Expression<SqlBool> {
  switch (condition.type) {
    case 'and':
      return eb.and(condition.items.map((item) => compileCondition(eb, kind, item)));
    case 'or':
      return eb.or(condition.items.map((item) => compileCondition(eb, kind, item)));
    case 'compare':
      return compileComparison(eb, columnRef(kind, condition.field), condition.operator, condition.value);
  }
}

function compileComparison(eb: AnyBuilder, column: string, operator: Operator, value: Scalar | Scalar[] | null): Expression<SqlBool> {
  const ref = eb.ref(column);
  const one = value as Scalar;
  const list = value as Scalar[];
  const lowerRef = eb.fn<string>('lower', [ref]);
  const lower = (v: Scalar) => eb.fn<string>('lower', [eb.val(String(v))]);
  switch (operator) {
    case '$eq':
      return eb(ref, '=', one);
    case '$ne':
      return eb(ref, '<>', one);
    case '$gt':
      return eb(ref, '>', one);
    case '$lt':
      return eb(ref, '<', one);
    case '$gte':
      return eb(ref, '>=', one);
    case '$lte':
      return eb(ref, '<=', one);
    // Wildcards in values are not escaped, as in the original: `%` and `_` keep their LIKE meaning.
    case '$starts':
      return eb(ref, 'like', `${String(one)}%`);
    case '$ends':
      return eb(ref, 'like', `%${String(one)}`);
    case '$cont':
      return eb(ref, 'like', `%${String(one)}%`);
    case '$excl':
      return eb(ref, 'not like', `%${String(one)}%`);
    case '$in':
      return eb(ref, 'in', list);
    case '$notin':
      return eb(ref, 'not in', list);
    case '$isnull':
      return eb(ref, 'is', null);
    case '$notnull':
      return eb(ref, 'is not', null);
    case '$between':
      return eb.between(ref, list[0]!, list[1]!);
    case '$eqL':
      return eb(lowerRef, '=', lower(one));
    case '$neL':
      return eb(lowerRef, '<>', lower(one));
    case '$startsL':
      return eb(lowerRef, 'like', lower(`${String(one)}%`));
    case '$endsL':
      return eb(lowerRef, 'like', lower(`%${String(one)}`));
    case '$contL':
      return eb(lowerRef, 'like', lower(`%${String(one)}%`));
    case '$exclL':
      return eb(lowerRef, 'not like', lower(`%${String(one)}%`));
    case '$inL':
      return eb(lowerRef, 'in', list.map(lower));
    case '$notinL':
      return eb(lowerRef, 'not in', list.map(lower));
  }
}
