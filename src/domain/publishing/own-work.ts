import type { Condition } from '../record/record-query.js';

/** A publisher's own projects and applications: those whose publisherId is its id, whatever else the query asks. */
export function ownWorkCondition(publisherId: number): Condition {
  return { type: 'compare', field: { relation: null, field: 'publisherId' }, operator: '$eq', value: publisherId };
}
