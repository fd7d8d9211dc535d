import { clientInstantOrNull } from '../booking/booking-time.js';
import type { FieldSpec } from './record-kind.js';
import type { Scalar } from './record-query.js';

const numberText = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isoTime = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2}))?$/;

/** The range of integer fields: PostgreSQL integer columns, which refuse anything wider. */
export const maxInteger = 2_147_483_647;

export const isInteger = (value: unknown): value is number => Number.isInteger(value) && Math.abs(value as number) <= maxInteger;

/** PostgreSQL text cannot hold the NUL character; a value carrying one is refused before any query. */
export const isStorableText = (value: string) => !value.includes('\u0000');

/**
 * A JSON value (from `s`) as a value of the field's type, or undefined when it is not one.
 * Strings take numbers and booleans as their text; numbers and booleans take their text.
 */
export function coerceJsonValue(spec: FieldSpec, value: unknown): Scalar | undefined {
  switch (spec.type) {
    case 'string':
      if (typeof value === 'string') return isStorableText(value) ? value : undefined;
      if (typeof value === 'number' && Number.isFinite(value)) return String(value);
      return typeof value === 'boolean' ? String(value) : undefined;
    case 'uuid':
      return typeof value === 'string' && uuid.test(value) ? value.toLowerCase() : undefined;
    case 'number':
    case 'integer': {
      const n = typeof value === 'number' ? value : typeof value === 'string' && numberText.test(value) ? Number(value) : NaN;
      if (!Number.isFinite(n)) return undefined;
      return spec.type === 'integer' && !isInteger(n) ? undefined : n;
    }
    case 'boolean':
      if (typeof value === 'boolean') return value;
      return value === 'true' ? true : value === 'false' ? false : undefined;
    case 'timestamp': {
      if (typeof value !== 'string' || !isoTime.test(value)) return undefined;
      const instant = clientInstantOrNull(value.length === 10 ? `${value}T00:00:00Z` : value);
      return instant ? new Date(instant.epochMilliseconds) : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * A value written in a filter/or condition. A JSON string literal (`"12"`) loses its quotes, the
 * way to force a string; everything else is read as the field's type.
 */
export function coerceTextValue(spec: FieldSpec, text: string): Scalar | undefined {
  let value = text;
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) {
    try {
      value = JSON.parse(text) as string;
    } catch {
      value = text;
    }
  }
  return coerceJsonValue(spec, value);
}
