import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { sql, type Kysely } from 'kysely';
import qs from 'qs';
import { parseListQuery } from '../../../src/domain/record/parse-record-query.js';
import { compileCondition } from '../../../src/projections/record/compile-condition.js';
import { deviceKind } from '../../../src/projections/record/device-kind.js';
import { insertRecordRow } from '../../../src/projections/record/record-rows.js';
import { selectRecordByKey, selectRecordPage, selectRecordsById } from '../../../src/projections/record/select-records.js';
import { zoneKind } from '../../../src/projections/record/zone-kind.js';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.js';

const w = randomUUID();
const other = randomUUID();

const device = (id: string, name: string, type: string, timeout: number, workspace = w) => ({
  id, shortName: id.toUpperCase(), name, type, visible: timeout > 0, extra: { n: timeout }, decoder: 'lora', extName: `ext-${id}`,
  enableAlert: false, timeout, stateRef: [type], workspace,
});

const devices = [
  device('d1', 'router-1', 'active', 22),
  device('d2', 'Router-2', 'active', 1500),
  device('d3', 'switch_3', 'lab', 0),
  device('d4', 'sensor-4', 'retired', 15.5),
  device('d5', '50% sensor', 'lost', 8080),
  device('d1', 'router-1 elsewhere', 'active', 22, other),
];

describe('record queries on the database', () => {
  let database: TestDatabase;
  const ids = async (query: string, scope: string | null = w) => {
    const page = await selectRecordPage(database.db, deviceKind, { workspace: scope }, parseListQuery(deviceKind, qs.parse(query)));
    return page.data.map((r) => r.id);
  };

  before(async () => {
    database = await createTestDatabase();
    for (const d of devices) await insertRecordRow(database.db, deviceKind, d);
    await database.db.updateTable('devices').set({ api_key_hash: 'secret-hash' }).where('id', '=', 'd1').where('workspace', '=', w).execute();
    for (const z of [
      { id: 'hq', name: 'HQ', parentZoneId: null, workspace: w },
      { id: 'north', name: 'North Wing', parentZoneId: 'hq', workspace: w },
      { id: 'n1', name: 'Room N1', parentZoneId: 'north', workspace: w },
    ]) {
      await insertRecordRow(database.db, zoneKind, z);
    }
  });
  after(() => database.destroy());

  it('round-trips every field type and never selects the excluded column', async () => {
    const found = await selectRecordByKey(database.db, deviceKind, { workspace: w, id: 'd4' });
    expect(found).to.deep.equal(devices[3]);
    const [d1] = await selectRecordsById(database.db, deviceKind, { workspace: w }, 'd1', { fields: null, joins: [] });
    expect(d1).not.to.have.property('apiKeyHash');
    expect(Object.values(d1!)).not.to.include('secret-hash');
  });

  it('runs every operator', async () => {
    const cases: [string, string[]][] = [
      ['filter=name||$eq||router-1', ['d1']],
      ['filter=name||$ne||router-1', ['d2', 'd3', 'd4', 'd5']],
      ['filter=timeout||$gt||22', ['d2', 'd5']],
      ['filter=timeout||$lt||15.5', ['d3']],
      ['filter=timeout||$gte||22', ['d1', 'd2', 'd5']],
      ['filter=timeout||$lte||15.5', ['d3', 'd4']],
      ['filter=name||$starts||r', ['d1']],
      ['filter=name||$ends||-2', ['d2']],
      ['filter=name||$cont||sensor', ['d4', 'd5']],
      ['filter=name||$excl||-', ['d3', 'd5']],
      ['filter=id||$in||d1,d3', ['d1', 'd3']],
      ['filter=type||$notin||retired,lost', ['d1', 'd2', 'd3']],
      ['filter=extra||$notnull', ['d1', 'd2', 'd3', 'd4', 'd5']],
      ['filter=extra||$isnull', []],
      ['filter=timeout||$between||15,22', ['d1', 'd4']],
      ['filter=name||$eqL||ROUTER-2', ['d2']],
      ['filter=name||$neL||ROUTER-2', ['d1', 'd3', 'd4', 'd5']],
      ['filter=name||$startsL||rOuTeR', ['d1', 'd2']],
      ['filter=name||$endsL||-4', ['d4']],
      ['filter=name||$contL||SENSOR', ['d4', 'd5']],
      ['filter=name||$exclL||ROUTER', ['d3', 'd4', 'd5']],
      ['filter=name||$inL||ROUTER-1,Router-2', ['d1', 'd2']],
      ['filter=name||$notinL||ROUTER-1,Router-2', ['d3', 'd4', 'd5']],
      ['filter=visible||$eq||false', ['d3']],
      ['filter=workspace||$eq||' + w, ['d1', 'd2', 'd3', 'd4', 'd5']],
      // LIKE wildcards are not escaped: `_` matches any one character, `%` any run.
      ['filter=name||$cont||h_3', ['d3']],
      ['filter=name||$starts||50%', ['d5']],
    ];
    for (const [query, expected] of cases) expect(await ids(query), query).to.deep.equal(expected);
  });

  it('keeps other workspaces out, whatever the client condition', async () => {
    expect(await ids('or=id||$eq||d1&or=workspace||$eq||' + other)).to.deep.equal(['d1']);
    expect(await ids('filter=id||$eq||d1', null)).to.deep.equal(['d1', 'd1']);
  });

  it('filters, sorts and joins through zone relations', async () => {
    const query = parseListQuery(zoneKind, { filter: 'parentZone.name||$contL||wing', join: ['parentZone||name', 'children'], sort: 'parentZone.name,DESC' });
    const page = await selectRecordPage(database.db, zoneKind, { workspace: w }, query);
    expect(page.data).to.deep.equal([
      {
        id: 'n1', name: 'Room N1', parentZoneId: 'north', workspace: w,
        parentZone: { id: 'north', name: 'North Wing', workspace: w },
        children: [],
      },
    ]);
    const hq = await selectRecordsById(database.db, zoneKind, { workspace: w }, 'hq', { fields: ['name'], joins: [{ relation: 'children', fields: ['name'] }] });
    expect(hq).to.deep.equal([{ id: 'hq', name: 'HQ', workspace: w, children: [{ id: 'north', name: 'North Wing', workspace: w }] }]);
  });

  it('counts all matching records and orders pages by the key fields', async () => {
    const page = await selectRecordPage(database.db, deviceKind, { workspace: null }, parseListQuery(deviceKind, { limit: '2', page: '2', fields: 'name' }));
    expect(page).to.deep.include({ count: 2, total: 6, page: 2, pageCount: 3 });
    expect(page.data.map((r) => r.id)).to.deep.equal(['d2', 'd3']);
  });

  it('emits identifiers only from the kind and binds every value', () => {
    const where = parseListQuery(deviceKind, { s: JSON.stringify({ $or: [{ name: "x'; drop table devices; --" }, { shortName: { $contL: 'a"b' } }] }) }).where!;
    const compiled = (database.db as unknown as Kysely<any>)
      .selectFrom('devices as root')
      .select('root.id')
      .where((eb) => compileCondition(eb, deviceKind, where))
      .compile();
    expect(compiled.sql).to.equal('select "root"."id" from "devices" as "root" where ("root"."name" = $1 or lower("root"."short_name") like lower($2))');
    expect(compiled.parameters).to.deep.equal(["x'; drop table devices; --", '%a"b%']);
  });

  it('leaves the tables alone after refused injections', async () => {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from devices`.execute(database.db);
    expect(rows[0]!.n).to.equal(devices.length);
  });
});
