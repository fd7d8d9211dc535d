import type { JSONColumnType, Selectable } from 'kysely';
import type { Quota } from '../../../domain/quota/quota.js';

/** The live quotas of every workspace (one row a quota, the record as its events carry it). */
export type QuotasTable = {
  id: string;
  workspace: string;
  quota: JSONColumnType<Quota, string, string>;
  created_at: Date;
};

export type QuotaRow = Selectable<QuotasTable>;
