/** Spec 2.1: every field required. */
export type DeviceRecord = {
  id: string;
  shortName: string;
  name: string;
  type: string;
  visible: boolean;
  extra: Record<string, unknown>;
  decoder: string;
  extName: string;
  enableAlert: boolean;
  timeout: number;
  stateRef: string[];
  workspace: string;
};

/** Contract §10: zones form a tree inside one workspace. */
export type ZoneRecord = {
  id: string;
  name: string;
  parentZoneId: string | null;
  workspace: string;
};
