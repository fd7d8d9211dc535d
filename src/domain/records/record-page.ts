import type { RecordJson } from './record-kind.js';

/** The list envelope of spec 4.2; every field is always present. */
export type RecordPage = { data: RecordJson[]; count: number; total: number; page: number; pageCount: number };

/** page is derived from the offset (not echoed back); pageCount is at least 1, as in the original. */
export function recordPage(data: RecordJson[], total: number, take: number, skip: number): RecordPage {
  return {
    data,
    count: data.length,
    total,
    page: Math.floor(skip / take) + 1,
    pageCount: total > 0 ? Math.ceil(total / take) : 1,
  };
}
