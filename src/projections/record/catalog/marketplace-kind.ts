import { releasedCondition } from '../../../domain/catalog/application-status.js';
import type { RecordKind } from '../../../domain/record/record-kind.js';
import { applicationKind } from './application-kind.js';

/**
 * The marketplace: the applications in status RELEASE, read straight from the applications table.
 * A status move is the only step, so an application enters and leaves the marketplace in the
 * transaction that moves it. Read-only: nothing is written through this kind.
 */
export const marketplaceKind: RecordKind = {
  ...applicationKind,
  label: 'Released application',
  visibleWhen: releasedCondition,
};
