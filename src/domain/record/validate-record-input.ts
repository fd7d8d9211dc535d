import { clientInstantOrNull } from '../booking/booking-time.js';
import { DomainError } from '../domain-error.js';
import { isInteger, isStorableText } from './coerce-field-value.js';
import type { FieldSpec, RecordJson, RecordKind } from './record-kind.js';

/** create and replace take the whole record; update any non-empty part of it. */
export type WriteMode = 'create' | 'replace' | 'update';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isoTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** What jsonb cannot hold: NUL (as text cannot either) and an unpaired surrogate. */
const textProblem = (text: string) =>
  !isStorableText(text) ? 'the NUL character' : loneSurrogate.test(text) ? 'an unpaired surrogate' : undefined;

/**
 * What a JSON value holds that cannot be stored, or undefined. Walks with an explicit stack: a
 * value nested thousands of levels must not overflow the call stack.
 */
function unstorable(value: unknown): string | undefined {
  const stack = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') {
      const problem = textProblem(item);
      if (problem) return problem;
    } else if (Array.isArray(item)) {
      for (const element of item) stack.push(element);
    } else if (isObject(item)) {
      for (const [key, element] of Object.entries(item)) {
        const problem = textProblem(key);
        if (problem) return problem;
        stack.push(element);
      }
    }
  }
  return undefined;
}

function fits(spec: FieldSpec, value: unknown): boolean {
  if (value === null) return spec.nullable === true;
  switch (spec.type) {
    case 'string':
      return typeof value === 'string';
    case 'uuid':
      return typeof value === 'string' && uuid.test(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'timestamp':
      return typeof value === 'string' && isoTime.test(value) && clientInstantOrNull(value) !== null;
    case 'object':
      return isObject(value);
    case 'string[]':
      return Array.isArray(value) && value.every((item) => typeof item === 'string');
  }
}

/**
 * Checks a request body against the kind's fields by type. Returns the record to write: for
 * create and replace every writable field, a left-out one as its default (an optional nullable one
 * without a default as null); for create also the read-only fields that have a default.
 */
export function validateRecordInput(kind: RecordKind, body: unknown, mode: WriteMode): RecordJson {
  if (!isObject(body)) throw new DomainError('invalid_request', `${kind.label} body must be a JSON object`);
  const errors: { path: string; message: string }[] = [];
  const record: RecordJson = {};
  for (const [name, value] of Object.entries(body)) {
    const spec = Object.hasOwn(kind.fields, name) ? kind.fields[name] : undefined;
    if (!spec) errors.push({ path: `/body/${name}`, message: `unknown field '${name}'` });
    else if (spec.readOnly) errors.push({ path: `/body/${name}`, message: `field '${name}' is set by the server` });
    else if (!fits(spec, value)) errors.push({ path: `/body/${name}`, message: `field '${name}' must be ${describe(spec)}` });
    else {
      const problem = unstorable(value);
      if (problem) errors.push({ path: `/body/${name}`, message: `field '${name}' cannot hold ${problem}` });
      else record[name] = normalized(spec, value);
    }
  }
  if (mode !== 'update') {
    for (const [name, spec] of Object.entries(kind.fields)) {
      // A replace keeps the read-only fields the record has.
      if (Object.hasOwn(body, name) || (spec.readOnly && mode === 'replace')) continue;
      if (spec.default !== undefined) record[name] = structuredClone(spec.default);
      else if (spec.readOnly) continue;
      else if (spec.optional && spec.nullable) record[name] = null;
      else if (!spec.optional) errors.push({ path: `/body/${name}`, message: `field '${name}' is required` });
    }
  } else if (Object.keys(body).length === 0) {
    errors.push({ path: '/body', message: 'nothing to update' });
  }
  if (errors.length > 0) throw new DomainError('invalid_request', `Invalid ${kind.label}: ${errors[0]!.message}`, { errors });
  return Object.fromEntries(Object.keys(kind.fields).filter((name) => Object.hasOwn(record, name)).map((name) => [name, record[name]]));
}

/** The form the database answers with, so that an event's record equals the stored one. */
function normalized(spec: FieldSpec, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  if (spec.type === 'uuid') return value.toLowerCase();
  // Validated already: the instant is there.
  return spec.type === 'timestamp' ? new Date(clientInstantOrNull(value)!.epochMilliseconds).toISOString() : value;
}

function describe(spec: FieldSpec): string {
  const type = { string: 'a string', uuid: 'a uuid', number: 'a number', integer: 'an integer of 32 bits', boolean: 'a boolean', timestamp: 'an ISO 8601 time with offset', object: 'an object', 'string[]': 'an array of strings' }[spec.type];
  return spec.nullable ? `${type} or null` : type;
}
