import { invalidRequest } from '../domain-error.js';

/** Units are whole, from 1 to 10,000 (contract §21): a resource's, a booking's, a search's. */
export const maxUnits = 10_000;

/** The units `value` names, or 400 naming `pointer`. */
export function checkUnits(value: unknown, pointer: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > maxUnits) {
    throw invalidRequest(`units must be a whole number from 1 to ${maxUnits}`, pointer);
  }
  return value;
}
