/** Paging asked for by a list request: page is 1-based. */
export type Page = { page: number; limit: number };

/** The list envelope of every list endpoint. */
export type PageOf<T> = { data: T[]; count: number; total: number; page: number; pageCount: number };

export function pageOf<T>(data: T[], total: number, { page, limit }: Page): PageOf<T> {
  return { data, count: data.length, total, page, pageCount: Math.ceil(total / limit) };
}
