import type { RecordKind } from '../../../domain/record/record-kind.js';
import { applicationKind } from './application-kind.js';
import { projectKind } from './project-kind.js';

// Without relations: a join or a condition through one could reach records that are not the publisher's.

/** A publisher's projects as it reads them. */
export const ownProjectKind: RecordKind = { ...projectKind, relations: {} };

/** A publisher's applications as it reads them, with their status; the package stays excluded. */
export const ownApplicationKind: RecordKind = { ...applicationKind, relations: {} };
