import { invalidRequest } from '../domain-error.js';
import { allOf, anyOf, checkOperatorFits, comparison, invalidValue } from './comparison.js';
import { coerceJsonValue } from './coerce-field-value.js';
import { invalidOperatorMessage, operatorOf, operators } from './query-operators.js';
import type { RecordKind } from './record-kind.js';
import type { Condition, Scalar } from './record-query.js';
import { resolveField, type ResolvedField } from './resolve-field.js';

const maxDepth = 8;

const jsonExpected = () => invalidRequest('Invalid search param. JSON expected', 's');

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The `s` parameter: a JSON object condition (grammar of crud-query-language.md §2.5); `{}` is no condition. */
export function parseSearch(kind: RecordKind, text: unknown): Condition | null {
  if (typeof text !== 'string') throw jsonExpected();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw jsonExpected();
  }
  if (!isObject(parsed)) throw jsonExpected();
  return Object.keys(parsed).length === 0 ? null : condition(kind, parsed, 1);
}

function condition(kind: RecordKind, object: JsonObject, depth: number): Condition {
  if (depth > maxDepth) throw invalidRequest(`Search condition nested too deeply (at most ${maxDepth} levels)`, 's');
  const entries = Object.entries(object);
  if (entries.length === 0) throw invalidRequest('Empty search condition', 's');
  // Field entries, $and and $or siblings are all AND-ed: nothing in the object is ignored.
  return allOf(
    entries.map(([key, value]) => {
      if (key === '$and' || key === '$or') {
        if (!Array.isArray(value) || value.length === 0 || !value.every(isObject)) {
          throw invalidRequest(`${key} needs a non-empty array of conditions`, 's');
        }
        const items = value.map((item) => condition(kind, item, depth + 1));
        return key === '$and' ? allOf(items) : anyOf(items);
      }
      if (key.startsWith('$')) throw invalidRequest(`Invalid search operator '${key}'`, 's');
      return fieldCondition(resolveField(kind, key, 's'), key, value);
    }),
  );
}

function fieldCondition(field: ResolvedField, name: string, value: unknown): Condition {
  if (!isObject(value)) return operatorCondition(field, name, '$eq', value);
  const entries = Object.entries(value);
  if (entries.length === 0) throw invalidValue(name, 's');
  return allOf(
    entries.map(([operator, operand]) => {
      if (operator !== '$or') return operatorCondition(field, name, operator, operand);
      const alternatives = isObject(operand) ? Object.entries(operand) : [];
      if (alternatives.length === 0 || alternatives.some(([op]) => op === '$or')) {
        throw invalidRequest(`$or of field '${name}' needs an object of operators`, 's');
      }
      return anyOf(alternatives.map(([op, x]) => operatorCondition(field, name, op, x)));
    }),
  );
}

function operatorCondition(field: ResolvedField, name: string, operatorText: string, operand: unknown): Condition {
  const operator = operatorOf(operatorText);
  if (!operator) throw invalidRequest(invalidOperatorMessage, 's');
  // null compares as SQL does with IS: $eq null is IS NULL, $ne null is IS NOT NULL.
  const nullTest = operand === null && (operator === '$eq' || operator === '$ne');
  const effective = nullTest ? (operator === '$eq' ? '$isnull' : '$notnull') : operator;
  checkOperatorFits(field, name, effective, 's');
  const arity = operators[effective].arity;
  if (arity === 'none') {
    if (!nullTest && operand !== true) throw invalidValue(name, 's');
    return comparison(field, name, effective, null, 's');
  }
  if (arity === 'one') return comparison(field, name, effective, typed(field, name, operand), 's');
  if (!Array.isArray(operand)) throw invalidValue(name, 's');
  return comparison(field, name, effective, operand.map((item) => typed(field, name, item)), 's');
}

function typed(field: ResolvedField, name: string, value: unknown): Scalar {
  const typedValue = coerceJsonValue(field.spec, value);
  if (typedValue === undefined) throw invalidValue(name, 's');
  return typedValue;
}
