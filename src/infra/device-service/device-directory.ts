export type DeviceRecordKind = 'zone' | 'device';

/** What the booking side needs to know of a zone or device. */
export type DeviceRecordSummary = { name: string; /** A zone's parent, when the record names one. */ parentZoneId?: string | null };

/**
 * The device service as the booking side sees it. `lookup` answers null when the record does not
 * exist (or is not visible to the caller) and throws DomainError('dependency_unavailable') when the
 * service cannot answer.
 */
export type DeviceDirectory = {
  lookup(kind: DeviceRecordKind, workspace: string, id: string, authorization?: string): Promise<DeviceRecordSummary | null>;
  /**
   * A remote service's zone tree, which this service cannot read live: the zone's ancestors,
   * parent first (null when the zone does not exist). Absent for the service's own zones, whose
   * tree the free search reads at query time.
   */
  zoneAncestors?(workspace: string, zoneId: string, authorization?: string): Promise<string[] | null>;
};
