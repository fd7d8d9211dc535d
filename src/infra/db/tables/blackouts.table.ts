/** The blackouts of every workspace (contract §17); resource_ids null = the whole workspace. */
export type BlackoutsTable = {
  id: string;
  workspace: string;
  resource_ids: string[] | null;
  from_time: Date;
  to_time: Date;
  reason: string;
  created_by: string;
  created_at: Date;
};
