import type { Quota } from './quota.js';

export type QuotaCreated = { type: 'QuotaCreated'; data: { quota: Quota } };
export type QuotaDeleted = { type: 'QuotaDeleted'; data: { quota: Quota; by: string; at: string } };

export type QuotaEvent = QuotaCreated | QuotaDeleted;

export const quotaEventTypes: ReadonlySet<string> = new Set<QuotaEvent['type']>(['QuotaCreated', 'QuotaDeleted']);

export const quotaStreamId = (id: string) => `quota-${id}`;
