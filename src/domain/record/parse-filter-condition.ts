import { invalidRequest } from '../domain-error.js';
import { checkOperatorFits, comparison, invalidValue } from './comparison.js';
import { coerceTextValue } from './coerce-field-value.js';
import { invalidOperatorMessage, operatorOf, operators } from './query-operators.js';
import type { RecordKind } from './record-kind.js';
import type { Condition, Scalar } from './record-query.js';
import { resolveField, type ResolvedField } from './resolve-field.js';

/** One `filter` or `or` condition: `<field>||<operator>||<value>`, list values separated by commas. */
export function parseFilterCondition(kind: RecordKind, text: string, param: 'filter' | 'or'): Condition {
  const parts = text.split('||');
  const [name = '', operatorText, valueText] = parts;
  if (name === '') throw invalidRequest(`Invalid field type in ${param} condition. String expected`, param);
  const operator = operatorText === undefined ? null : operatorOf(operatorText);
  if (!operator) throw invalidRequest(invalidOperatorMessage, param);
  if (parts.length > 3) throw invalidRequest(`Invalid ${param} condition. <field>||<operator>||<value> expected`, param);
  const field = resolveField(kind, name, param);
  checkOperatorFits(field, name, operator, param);
  const arity = operators[operator].arity;
  if (arity === 'none') return comparison(field, name, operator, null, param);
  const missing = (v: string | undefined) => v === undefined || v === '' || v === 'null';
  if (missing(valueText)) throw invalidRequest(`Invalid ${param} value`, param);
  if (arity === 'one') return comparison(field, name, operator, typed(field, name, valueText!, param), param);
  const items = valueText!.split(',');
  if (items.some(missing)) throw invalidRequest(`Invalid ${param} value`, param);
  return comparison(field, name, operator, items.map((item) => typed(field, name, item, param)), param);
}

function typed(field: ResolvedField, name: string, text: string, param: string): Scalar {
  const value = coerceTextValue(field.spec, text);
  if (value === undefined) throw invalidValue(name, param);
  return value;
}
