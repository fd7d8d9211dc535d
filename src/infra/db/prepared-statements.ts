import { createHash } from 'node:crypto';

/**
 * The SQL texts compiled once (sql-template.ts), each with the name it is prepared under on a
 * server connection. Sent by name, such a statement is parsed once per connection instead of once
 * per call: the append alone is 8 KB of SQL with its projections, which PostgreSQL parsed and planned
 * afresh for every create. Only fixed texts are registered, so the set is bounded by the code. A
 * registry, not a cache (boundedCache): a text not found is one built per call, never computed again.
 */
const names = new Map<string, string>();

export function registerPreparedStatement(text: string): void {
  if (!names.has(text)) names.set(text, `s_${createHash('sha1').update(text).digest('hex')}`);
}

/** The prepared statement's name for this text; undefined for text built per call. */
export const preparedStatementName = (text: string): string | undefined => names.get(text);
