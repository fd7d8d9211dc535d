import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { jsonEvent, START } from '@eventstore/db-client';
import { expect } from 'chai';
import sinon from 'sinon';
import { processBatch } from '../../src/workers/process-batch.js';
import type { Processor } from '../../src/workers/processor.js';
import { projectionsCheckpointOnAll } from '../support/projections-checkpoint.js';
import { startTestServerOnStubbedEventStoreDb, stubbedEventStoreDbEnv, type StubbedEventStoreDb } from '../support/stubbed-eventstoredb.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { deviceBody } from './record/record-api.js';

const Z = '/device/v1/zones';
const D = '/device/v1/devices';

// The EventStoreDB client is replaced at its edge (connectionString) by a fake that answers as a
// single node; the adapter, the runner and the read models in PostgreSQL are the real ones.
describe('EVENT_STORE=eventstoredb: device, zone and catalog records', function () {
  this.timeout(60_000);
  let server: TestServer;
  let esdb: StubbedEventStoreDb;
  const zone = (id: string, parentZoneId: string | null = null) => ({ id, name: `Zone ${id}`, parentZoneId, workspace: server.workspace });

  const projectionsCheckpoint = () => projectionsCheckpointOnAll(server.database.db);
  const subscribedFrom = (calls: sinon.SinonSpyCall[]) => calls.map((call) => (call.args[0] as { fromPosition: unknown }).fromPosition);

  before(async () => {
    ({ server, esdb } = await startTestServerOnStubbedEventStoreDb());
  });
  after(async () => {
    await server?.stop();
    esdb?.restore();
  });

  it('creates, reads, updates and deletes records: the events go to EventStoreDB, the rows are readable at once', async () => {
    expect((await server.request('POST', Z, { body: zone('hq') })).status).to.equal(201);
    expect((await server.request('POST', Z, { body: zone('north', 'hq') })).status).to.equal(201);
    expect((await server.request('GET', `${Z}/north`)).body).to.deep.equal(zone('north', 'hq'));
    const device = deviceBody('d-1', server.workspace);
    const created = await server.request('POST', D, { body: device });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect((await server.request('GET', `${D}/d-1`)).body.name).to.equal('Device d-1');

    const renamed = await server.request('PATCH', `${Z}/north`, { body: { name: 'North wing' } });
    expect(renamed.status).to.equal(200);
    expect((await server.request('GET', `${Z}/north`)).body.name).to.equal('North wing');
    expect((await server.request('DELETE', `${D}/d-1`)).status).to.equal(200);
    expect((await server.request('GET', `${D}/d-1`)).status).to.equal(404);

    const streams = (prefix: string) => esdb.events().filter((e) => e.streamId.startsWith(prefix)).map((e) => [e.streamId, e.type]);
    expect(streams('zone-')).to.deep.equal([
      [`zone-${server.workspace}-hq`, 'ZoneCreated'],
      [`zone-${server.workspace}-north`, 'ZoneCreated'],
      [`zone-${server.workspace}-north`, 'ZoneUpdated'],
    ]);
    expect(streams('device-').map(([, type]) => type)).to.deep.equal(['DeviceCreated', 'DeviceDeleted']);
    // PostgreSQL keeps the read models only: its own log holds none of these.
    expect(await server.database.db.selectFrom('events').select('event_type').execute()).to.deep.equal([]);
  });

  it('keeps the rules: a refused write appends nothing to EventStoreDB', async () => {
    const before = esdb.events().length;
    expect((await server.request('POST', Z, { body: zone('lost', 'ghost') })).status).to.equal(400);
    expect((await server.request('PATCH', `${Z}/hq`, { body: { parentZoneId: 'north' } })).status).to.equal(400);
    const stillParent = await server.request('DELETE', `${Z}/hq`);
    expect(stillParent.status).to.equal(409);
    expect(stillParent.body.message).to.include('still has child zones');
    expect(esdb.events().length).to.equal(before);
    expect((await server.request('GET', `${Z}/hq`)).status).to.equal(200);
  });

  it('of two racing creates with the same unique key (a publisher email), one is created and one is a 409', async () => {
    const admin = server.token({ level: 'LV1', workspace: null, sub: 'admin-1' });
    const create = (name: string) => server.request('POST', '/catalog/v1/publishers', { body: { email: 'twice@example.com', name }, token: admin });
    const answers = await Promise.all([create('First'), create('Second')]);
    expect(answers.map((a) => a.status).sort()).to.deep.equal([201, 409]);
    const winner = answers.find((a) => a.status === 201)!.body;
    expect(esdb.events().filter((e) => e.type === 'PublisherCreated').map((e) => (e.data as { record: { email: string } }).record.email)).to.deep.equal(['twice@example.com']);
    expect((await server.request('GET', `/catalog/v1/publishers/${winner.id}`, { token: admin })).body.name).to.equal(winner.name);
  });

  it('fails a write whose append answer is lost, yet its row follows from $all and a retry is a 409', async () => {
    esdb.loseNextAppendAnswer();
    const lost = await server.request('POST', Z, { body: zone('answer-lost') });
    expect(lost.status).to.equal(503);
    expect(esdb.events().at(-1)!.streamId).to.equal(`zone-${server.workspace}-answer-lost`);
    const retry = await server.request('POST', Z, { body: zone('answer-lost') });
    expect(retry.status).to.equal(409);
    expect((await server.request('GET', `${Z}/answer-lost`)).body).to.deep.equal(zone('answer-lost'));
  });

  it('follows $all through subscriptions that leave system events out: one at the head stalls neither followers nor writes', async () => {
    esdb.appendSystemEvent();
    esdb.appendSystemEvent();
    const created = await server.request('POST', Z, { body: zone('after-stats') });
    expect(created.status).to.equal(201);
    esdb.appendSystemEvent();
    expect((await server.request('PATCH', `${Z}/after-stats`, { body: { name: 'Still followed' } })).status).to.equal(200);
    expect((await server.request('GET', `${Z}/after-stats`)).body.name).to.equal('Still followed');
    expect(await projectionsCheckpoint()).to.deep.equal(esdb.events().at(-1)!.position);
    for (const call of esdb.spies.subscribeToAll.getCalls()) expect(call.args[0]?.filter).to.include({ filterOn: 'eventType', regex: '^[^$].*' });
  });

  it('subscribes again from its checkpoint when the connection to EventStoreDB is lost', async () => {
    const checkpoint = await projectionsCheckpoint();
    const calls = esdb.spies.subscribeToAll.callCount;
    esdb.dropSubscriptions();
    const renamed = await server.request('PATCH', `${Z}/hq`, { body: { name: 'Headquarters' } });
    expect(renamed.status).to.equal(200);
    expect((await server.request('GET', `${Z}/hq`)).body.name).to.equal('Headquarters');
    expect(subscribedFrom(esdb.spies.subscribeToAll.getCalls().slice(calls))).to.deep.include(checkpoint);
  });

  it('places a new processor that starts at the end of the log at the head of $all, past the system events there', async () => {
    esdb.appendSystemEvent();
    const handled: string[] = [];
    const processor: Processor = { name: 'late-starter', mode: 'at-least-once', firstPosition: 'log-end', handle: async (event) => void handled.push(event.type) };
    const deps = { db: server.database.db, eventStore: server.services.eventStore };
    expect(await processBatch(deps, processor, 100)).to.equal(0);
    expect((await server.request('POST', Z, { body: zone('seen-by-late-starter') })).status).to.equal(201);
    expect(await processBatch(deps, processor, 100)).to.equal(1);
    expect(handled).to.deep.equal(['ZoneCreated']);
  });

  it('resumes from the stored checkpoint after a restart, with what was appended meanwhile', async () => {
    const { database, workspace } = server;
    await server.close();
    const checkpoint = await projectionsCheckpoint();
    // Another instance writes while this one is down.
    const record = { ...zone('hq'), name: 'Renamed elsewhere' };
    await esdb.client.appendToStream(`zone-${workspace}-hq`, [
      jsonEvent({ id: randomUUID(), type: 'ZoneUpdated', data: { workspace, id: 'hq', record, by: 'elsewhere', at: new Date().toISOString() } }),
    ]);
    const calls = esdb.spies.subscribeToAll.callCount;
    server = await startTestServer(stubbedEventStoreDbEnv, { database, workspace });

    let name: string | undefined;
    for (let i = 0; i < 100 && name !== 'Renamed elsewhere'; i++) {
      name = (await server.request('GET', `${Z}/hq`)).body.name;
      if (name !== 'Renamed elsewhere') await sleep(50);
    }
    expect(name).to.equal('Renamed elsewhere');
    const from = subscribedFrom(esdb.spies.subscribeToAll.getCalls().slice(calls));
    expect(from).to.deep.include(checkpoint);
    expect(from).not.to.include(START);
    expect(await projectionsCheckpoint()).to.deep.equal(esdb.events().at(-1)!.position);
  });
});
