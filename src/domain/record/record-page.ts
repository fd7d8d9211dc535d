import { pageOf, type PageOf } from '../page.js';
import type { RecordJson } from './record-kind.js';

/** The list envelope of spec 4.2; every field is always present. */
export type RecordPage = PageOf<RecordJson>;

/** page is derived from the offset (not echoed back). */
export function recordPage(data: RecordJson[], total: number, take: number, skip: number): RecordPage {
  return pageOf(data, total, { page: Math.floor(skip / take) + 1, limit: take });
}
