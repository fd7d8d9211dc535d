/** A remote device service's zone with its ancestors (parent first), as last read from that service. */
export type ZoneAncestryTable = {
  workspace: string;
  zone_id: string;
  ancestors: string[];
  refreshed_at: Date;
};
