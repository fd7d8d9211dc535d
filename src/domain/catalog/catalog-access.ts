import { isSystemAdmin } from '../access/principal.js';
import type { RecordAccess } from '../record/record-access.js';

/**
 * Projects, applications and publishers belong to no workspace: every level
 * reads them, and only LV1 writes them, since there is no workspace of theirs an LV2 could write in.
 */
export const platformRecordAccess: RecordAccess = { read: () => true, write: isSystemAdmin };
