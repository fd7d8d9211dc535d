import type { Condition } from '../record/record-query.js';

/** Spec 3, in the order given. */
export const applicationStatuses = ['SUBMISSION', 'REVIEW', 'APPROVAL', 'PRE_RELEASE', 'RELEASE', 'UNAVAILABLE'] as const;

export type ApplicationStatus = (typeof applicationStatuses)[number];

/** Contract §10: the statuses a reviewer may move an application to from each status; nothing else. */
export const statusMoves: Record<ApplicationStatus, readonly ApplicationStatus[]> = {
  SUBMISSION: ['REVIEW'],
  REVIEW: ['APPROVAL', 'SUBMISSION'],
  APPROVAL: ['PRE_RELEASE', 'REVIEW'],
  PRE_RELEASE: ['RELEASE', 'REVIEW'],
  RELEASE: ['UNAVAILABLE'],
  UNAVAILABLE: ['REVIEW', 'RELEASE'],
};

/** Only released applications reach the marketplace and end users. */
export const releasedCondition: Condition = { type: 'compare', field: { relation: null, field: 'status' }, operator: '$eq', value: 'RELEASE' };
