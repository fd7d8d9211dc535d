import type { Generated, JSONColumnType } from 'kysely';

export type ZonesTable = {
  workspace: string;
  id: string;
  name: string;
  parent_zone_id: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
};

export type DevicesTable = {
  workspace: string;
  id: string;
  short_name: string;
  name: string;
  type: string;
  visible: boolean;
  extra: JSONColumnType<Record<string, unknown>, string, string>;
  decoder: string;
  ext_name: string;
  enable_alert: boolean;
  timeout: number;
  state_ref: JSONColumnType<string[], string, string>;
  api_key_hash: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
};
