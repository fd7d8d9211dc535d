export type DeviceRecordKind = 'zone' | 'device';

/** What the booking side needs to know of a zone or device. */
export type DeviceRecordSummary = { name: string };

/**
 * The device service as the booking side sees it. `lookup` answers null when the record does not
 * exist (or is not visible to the caller) and throws DomainError('dependency_unavailable') when the
 * service cannot answer.
 */
export type DeviceDirectory = {
  lookup(kind: DeviceRecordKind, workspace: string, id: string, authorization?: string): Promise<DeviceRecordSummary | null>;
};
