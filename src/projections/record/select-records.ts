import { sql, type ExpressionBuilder, type Kysely, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import { jsonArrayFrom, jsonObjectFrom } from 'kysely/helpers/postgres';
import type { RecordScope } from '../../domain/record/record-access.js';
import { keyFieldsOf, type RecordJson, type RecordKey, type RecordKind } from '../../domain/record/record-kind.js';
import { recordPage, type RecordPage } from '../../domain/record/record-page.js';
import type { Condition, JoinRequest, ListQuery, ReadQuery, SortKey } from '../../domain/record/record-query.js';
import type { Executor } from '../../infra/db/database.js';
import { compileCondition } from './compile-condition.js';
import { columnOf, columnRef, relationAlias, rootAlias } from './record-columns.js';
import { recordJsonOf } from './record-json.js';

// The record layer queries tables chosen at run time; every identifier still comes from a RecordKind.
type AnyDb = Kysely<any>;
type AnyQuery = SelectQueryBuilder<any, any, any>;
type AnyBuilder = ExpressionBuilder<any, any>;

const allFields: ReadQuery = { fields: null, joins: [] };

/** One page of records in the scope, with the total of all matching ones. */
export async function selectRecordPage(db: Executor, kind: RecordKind, scope: RecordScope, query: ListQuery): Promise<RecordPage> {
  const relations = new Set([
    ...relationsIn(query.where),
    ...relationsIn(scope.visibleWhen ?? null),
    ...query.sort.flatMap((s) => (s.field.relation ? [s.field.relation] : [])),
  ]);
  const base = () => {
    const q = scoped(from(db, kind, relations), kind, scope);
    const where = query.where;
    return where ? q.where((eb) => compileCondition(eb, kind, where)) : q;
  };
  const [rows, count] = await Promise.all([
    orderedBy(base().select(selection(kind, query)), kind, query.sort).limit(query.take).offset(query.skip).execute(),
    base()
      .select((eb) => eb.fn.countAll().as('total'))
      .executeTakeFirstOrThrow(),
  ]);
  const data = rows.map((row) => recordJsonOf(kind, row, query.joins));
  return recordPage(data, Number(count.total), query.take, query.skip);
}

/** Records with this id in the scope: several only when the scope spans workspaces (at most two are read). */
export async function selectRecordsById(db: Executor, kind: RecordKind, scope: RecordScope, id: string | number, query: ReadQuery): Promise<RecordJson[]> {
  const rows = await scoped(from(db, kind, new Set(relationsIn(scope.visibleWhen ?? null))), kind, scope)
    .where(`${rootAlias}.${columnOf(kind, kind.id.field)}`, '=', id)
    .select(selection(kind, query))
    .orderBy(sql.ref(`${rootAlias}.${columnOf(kind, keyFieldsOf(kind).at(-1)!)}`))
    .limit(2)
    .execute();
  return rows.map((row) => recordJsonOf(kind, row, query.joins));
}

/** The whole record at a key, or null. */
export async function selectRecordByKey(db: Executor, kind: RecordKind, key: RecordKey): Promise<RecordJson | null> {
  const row = await whereKey(from(db, kind, []), kind, key).select(selection(kind, allFields)).executeTakeFirst();
  return row ? recordJsonOf(kind, row, []) : null;
}

/** Which of these keys already hold a record. */
export async function selectExistingKeys(db: Executor, kind: RecordKind, keys: RecordKey[]): Promise<RecordKey[]> {
  if (keys.length === 0) return [];
  const idColumn = `${rootAlias}.${columnOf(kind, kind.id.field)}`;
  const rows = await from(db, kind, [])
    .where((eb) => eb.or(keys.map((key) => keyCondition(eb, kind, key))))
    .select(keyFieldsOf(kind).map((name) => `${rootAlias}.${columnOf(kind, name)} as ${name}`))
    .orderBy(sql.ref(idColumn))
    .execute();
  return rows.map((row) => ({ workspace: kind.workspaceField ? (row[kind.workspaceField] as string) : null, id: row[kind.id.field] as string | number }));
}

function keyCondition(eb: AnyBuilder, kind: RecordKind, key: RecordKey) {
  const id = eb(eb.ref(`${rootAlias}.${columnOf(kind, kind.id.field)}`), '=', key.id);
  return kind.workspaceField ? eb.and([id, eb(eb.ref(`${rootAlias}.${columnOf(kind, kind.workspaceField)}`), '=', key.workspace)]) : id;
}

function from(db: Executor, kind: RecordKind, relations: Iterable<string>): AnyQuery {
  let query: AnyQuery = (db as unknown as AnyDb).selectFrom(`${kind.table} as ${rootAlias}`);
  for (const name of relations) {
    const relation = kind.relations[name]!;
    const target = relation.kind();
    const alias = relationAlias(name);
    query = query.leftJoin(`${target.table} as ${alias}`, (join) =>
      relation.on.reduce((on, [local, remote]) => on.onRef(`${alias}.${columnOf(target, remote)}`, '=', `${rootAlias}.${columnOf(kind, local)}`), join),
    );
  }
  return query;
}

function whereKey(query: AnyQuery, kind: RecordKind, key: RecordKey): AnyQuery {
  return query.where((eb) => keyCondition(eb, kind, key));
}

/** Scoping is AND-ed outside the client's condition, so no `or` can reach another workspace or a hidden record. */
function scoped(query: AnyQuery, kind: RecordKind, scope: RecordScope): AnyQuery {
  const { visibleWhen } = scope;
  const visible = visibleWhen ? query.where((eb) => compileCondition(eb, kind, visibleWhen)) : query;
  if (!kind.workspaceField || scope.workspace === null) return visible;
  return visible.where(`${rootAlias}.${columnOf(kind, kind.workspaceField)}`, '=', scope.workspace);
}

function relationsIn(condition: Condition | null): string[] {
  if (!condition) return [];
  if (condition.type !== 'compare') return condition.items.flatMap(relationsIn);
  return condition.field.relation ? [condition.field.relation] : [];
}

/** The requested fields plus the key fields, in the kind's order. */
function fieldsInOrder(kind: RecordKind, requested: string[] | null): string[] {
  const keys = keyFieldsOf(kind);
  return Object.keys(kind.fields).filter((name) => requested === null || requested.includes(name) || keys.includes(name));
}

function selection(kind: RecordKind, query: ReadQuery) {
  return (eb: AnyBuilder) => [
    ...fieldsInOrder(kind, query.fields).map((name) => eb.ref(`${rootAlias}.${columnOf(kind, name)}`).as(name)),
    ...query.joins.map((join) => relatedJson(eb, kind, join).as(join.relation)),
  ];
}

function relatedJson(eb: AnyBuilder, kind: RecordKind, join: JoinRequest): RawBuilder<unknown> {
  const relation = kind.relations[join.relation]!;
  const target = relation.kind();
  const alias = 'related';
  let related = eb
    .selectFrom(`${target.table} as ${alias}`)
    .select(fieldsInOrder(target, join.fields).map((name) => eb.ref(`${alias}.${columnOf(target, name)}`).as(name)));
  for (const [local, remote] of relation.on) {
    related = related.whereRef(`${alias}.${columnOf(target, remote)}`, '=', `${rootAlias}.${columnOf(kind, local)}`);
  }
  if (relation.cardinality === 'one') return jsonObjectFrom(related);
  return jsonArrayFrom(keyFieldsOf(target).reduce((q, name) => q.orderBy(sql.ref(`${alias}.${columnOf(target, name)}`)), related));
}

/** Client sort keys, then the key fields, so that paging is deterministic. */
function orderedBy(query: AnyQuery, kind: RecordKind, sort: SortKey[]): AnyQuery {
  const sorted = sort.reduce((q, { field, order }) => q.orderBy(sql.ref(columnRef(kind, field)), order === 'ASC' ? 'asc' : 'desc'), query);
  const sortedRoot = new Set(sort.filter((s) => s.field.relation === null).map((s) => s.field.field));
  return keyFieldsOf(kind)
    .filter((name) => !sortedRoot.has(name))
    .reduce((q, name) => q.orderBy(sql.ref(`${rootAlias}.${columnOf(kind, name)}`)), sorted);
}
