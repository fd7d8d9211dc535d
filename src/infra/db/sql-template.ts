import { CompiledQuery, DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql, type RawBuilder } from 'kysely';
import { boundedCache } from '../cache/bounded-cache.js';
import type { Executor } from './database.js';
import { registerPreparedStatement } from './prepared-statements.js';

/** A named hole in SQL text: compiled as a parameter like any value, filled by name at each call. */
class Hole {
  constructor(readonly name: string) {}
}

/** What a template's statements are written with: one hole per argument, used where its value goes. */
export type Holes<Args> = { readonly [K in keyof Args]: unknown };

/**
 * Statements whose text never changes, with named values: Kysely compiles them once (the first time
 * they are used), and each call only fills in the values. Building and compiling the SQL text again
 * on every call cost a create about a tenth of its CPU.
 */
export type SqlTemplate<Args> = { readonly id: number; readonly statements: (holes: Holes<Args>) => RawBuilder<unknown>[] };

/** One use of a template: its statements with these values. */
export type BoundSql = { readonly template: SqlTemplate<Record<string, unknown>>; readonly args: object };

let templates = 0;

/** A template of data-modifying statements (or one query); each must be written without a WITH of its own. */
export function sqlTemplate<Args extends object>(statements: (holes: Holes<Args>) => RawBuilder<unknown>[]): SqlTemplate<Args> {
  templates += 1;
  return { id: templates, statements };
}

export function bind<Args extends object>(template: SqlTemplate<Args>, args: Args): BoundSql {
  // Its holes are filled from `args` by name, whatever their type.
  return { template: template as unknown as SqlTemplate<Record<string, unknown>>, args };
}

/** Holes named `prefix` + the argument's name. */
export function holesOf(prefix = ''): Holes<Record<string, unknown>> {
  return new Proxy({}, { get: (_, name) => new Hole(`${prefix}${String(name)}`) });
}

/** Compiles without a connection: the PostgreSQL compiler is the same for the server and PGlite. */
const compiler = new Kysely<unknown>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

/** A statement compiled once; `fill` gives it to the driver with the values of one call (by name on a server: prepared-statements.ts). */
export type CompiledTemplate = { fill: (args: Record<string, unknown>) => CompiledQuery };

export function compileOnce(statement: RawBuilder<unknown>): CompiledTemplate {
  const compiled = statement.compile(compiler);
  registerPreparedStatement(compiled.sql);
  const slots = compiled.parameters;
  return {
    fill: (args) => CompiledQuery.raw(compiled.sql, slots.map((slot) => (slot instanceof Hole ? args[slot.name] : slot))),
  };
}

/**
 * Several data-modifying statements as one (`with s0 as (…), s1 as (…) select`): one round trip.
 * They run on one snapshot, so none may depend on another's writes.
 */
export function allAtOnce(statements: RawBuilder<unknown>[]): RawBuilder<unknown> {
  if (statements.length === 1) return statements[0]!;
  return sql`with ${sql.join(statements.map((statement, i) => sql`${sql.raw(`s${i}`)} as (${statement})`))} select`;
}

/** Arguments of bound templates under the prefixes `holesOf` gave their holes (`0.`, `1.`, …). */
export function prefixedArgs(bound: readonly BoundSql[]): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  bound.forEach((b, i) => {
    for (const [name, value] of Object.entries(b.args)) args[`${i}.${name}`] = value;
  });
  return args;
}

/** By combination of templates: those the code makes, a few dozen. */
const compiledTogether = boundedCache<string, CompiledTemplate>('compiled-statements', { maxEntries: 1_000 });

/** Runs bound templates as one statement, compiled once per combination of templates. */
export async function executeAll(db: Executor, bound: readonly BoundSql[]): Promise<void> {
  if (bound.length === 0) return;
  const key = bound.map((b) => b.template.id).join(',');
  const compiled = compiledTogether.remember(key, () => compileOnce(allAtOnce(bound.flatMap((b, i) => b.template.statements(holesOf(`${i}.`))))));
  await db.executeQuery(compiled.fill(prefixedArgs(bound)));
}

/**
 * `insert … values (…) on conflict (key) do update set …` of every column, each value from the
 * hole of the column's name: a row replaced whole.
 */
export function upsertStatement(table: string, columns: readonly string[], key: string, holes: Holes<Record<string, unknown>>): RawBuilder<unknown> {
  const changed = columns.filter((column) => column !== key).map((column) => sql`${sql.ref(column)} = excluded.${sql.ref(column)}`);
  return sql`insert into ${sql.table(table)} (${sql.join(columns.map((column) => sql.ref(column)))})
    values (${sql.join(columns.map((column) => holes[column]))})
    on conflict (${sql.ref(key)}) do update set ${sql.join(changed)}`;
}
