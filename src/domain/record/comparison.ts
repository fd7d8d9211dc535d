import { invalidRequest } from '../domain-error.js';
import { operators, type Operator } from './query-operators.js';
import type { Condition, Scalar } from './record-query.js';
import type { ResolvedField } from './resolve-field.js';

export const invalidValue = (name: string, where: string) => invalidRequest(`Invalid column '${name}' value`, where);

/** Refuses an operator that makes no sense for the field's type (LIKE on a number, order on JSON). */
export function checkOperatorFits(field: ResolvedField, name: string, operator: Operator, where: string): void {
  if (!operators[operator].types.has(field.spec.type)) {
    throw invalidRequest(`Operator ${operator} cannot be used on field '${name}' (${field.spec.type})`, where);
  }
}

/** A typed comparison; list operators need at least one value, $between exactly two. */
export function comparison(field: ResolvedField, name: string, operator: Operator, value: Scalar | Scalar[] | null, where: string): Condition {
  if (Array.isArray(value)) {
    const count = value.length;
    if (count === 0 || (operator === '$between' && count !== 2)) throw invalidValue(name, where);
  }
  return { type: 'compare', field: field.path, operator, value };
}

export function allOf(items: Condition[]): Condition {
  return items.length === 1 ? items[0]! : { type: 'and', items };
}

export function anyOf(items: Condition[]): Condition {
  return items.length === 1 ? items[0]! : { type: 'or', items };
}

/** The number of single comparisons in a condition tree. */
export function comparisonCount(condition: Condition | null): number {
  if (!condition) return 0;
  return condition.type === 'compare' ? 1 : condition.items.reduce((sum, item) => sum + comparisonCount(item), 0);
}
