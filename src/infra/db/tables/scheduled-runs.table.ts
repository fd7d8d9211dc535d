/** When each daily job (by name) last ran to its end. */
export type ScheduledRunsTable = {
  name: string;
  last_run_at: Date;
};
