/** Paging asked for by a list request: page is 1-based. */
export type Page = { page: number; limit: number };

/** The list envelope of every list endpoint (spec 2.4 and 4.2). */
export type PageOf<T> = { data: T[]; count: number; total: number; page: number; pageCount: number };

/** pageCount is at least 1, as the record interface's original answers: an empty list is one empty page. */
export function pageOf<T>(data: T[], total: number, { page, limit }: Page): PageOf<T> {
  return { data, count: data.length, total, page, pageCount: Math.max(1, Math.ceil(total / limit)) };
}
