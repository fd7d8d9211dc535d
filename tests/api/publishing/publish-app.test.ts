import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { buildZip, lyingZip, smallZip } from '../../infra/publishing/build-zip.js';
import { png, publisherToken, seedProject, seedPublisher, startPublishingServer, storedState, upload, uploadForm, type PublishingServer } from './publishing-api.js';

const notVerified = 'Publisher is not verified. Please contact the platform administrator.';

function expectError(res: { status: number; body: any }, status: number, message?: string | RegExp) {
  expect(res.status, JSON.stringify(res.body)).to.equal(status);
  expect(res.body.statusCode).to.equal(status);
  expect(res.body.message).to.be.a('string');
  if (typeof message === 'string') expect(res.body.message).to.equal(message);
  else if (message) expect(res.body.message).to.match(message);
}

describe('publishing an app (production)', () => {
  let server: PublishingServer;
  let owner: number;
  let token: string;
  before(async () => {
    server = await startPublishingServer();
    owner = await seedPublisher(server, 'owner@example.com');
    token = publisherToken(owner, 'owner@example.com');
    await seedProject(server, 'notes', '1.0', owner);
  });
  after(() => server.stop());

  async function expectNothingStored() {
    const state = await storedState(server);
    expect(state.applications).to.deep.equal([]);
    expect(state.events).to.deep.equal([]);
    expect(state.assets).to.deep.equal([]);
  }

  describe('refusals store nothing', () => {
    afterEach(expectNothingStored);

    it('401 without a token', async () => {
      expectError(await upload(server, uploadForm(), null), 401);
    });

    for (const field of ['name', 'displayName', 'version']) {
      it(`400 without ${field}, naming it`, async () => {
        const form = uploadForm();
        form.delete(field);
        const res = await upload(server, form, token);
        expectError(res, 400, `${field} is required`);
        expect(res.body.errors).to.deep.equal([{ path: `/body/${field}`, message: `${field} is required` }]);
      });
    }

    it('400 without the file', async () => {
      expectError(await upload(server, uploadForm({ file: null }), token), 400, 'file is required');
    });

    it('400 for an unknown field, a field given twice, and the file sent as text', async () => {
      expectError(await upload(server, uploadForm({ fields: { status: 'RELEASE' } }), token), 400, 'unknown form field "status"');
      const twice = uploadForm();
      twice.append('version', '2.0');
      expectError(await upload(server, twice, token), 400, 'version is given more than once');
      const asText = uploadForm({ file: null });
      asText.append('file', 'not a file');
      expectError(await upload(server, asText, token), 400, 'file must be sent as a file');
    });

    it('400 for more than 10 screenshots', async () => {
      expectError(await upload(server, uploadForm({ screenshots: Array.from({ length: 11 }, () => png) }), token), 400, 'at most 10 screenshots are accepted');
    });

    it('415 for a body that is not multipart/form-data', async () => {
      expectError(await upload(server, JSON.stringify({ name: 'notes' }), token, '/publish/app', { 'content-type': 'application/json' }), 415);
    });

    it('400 for a malformed multipart body', async () => {
      const body = '--xyz\r\ncontent-disposition: form-data; name="name"\r\n\r\nnotes\r\n--xyz';
      expectError(await upload(server, body, token, '/publish/app', { 'content-type': 'multipart/form-data; boundary=xyz' }), 400, /malformed multipart/);
      expectError(await upload(server, 'x', token, '/publish/app', { 'content-type': 'multipart/form-data' }), 400, /malformed multipart/);
    });

    it('415 for a PNG renamed to .zip', async () => {
      expectError(await upload(server, uploadForm({ file: { bytes: png, filename: 'notes.zip' } }), token), 415, 'file is not a ZIP archive');
    });

    it('415 for a ZIP without the .zip extension', async () => {
      expectError(await upload(server, uploadForm({ file: { bytes: smallZip(), filename: 'notes.tar' } }), token), 415, /\.zip/);
    });

    it('415 for a path-traversal entry', async () => {
      const evil = buildZip([{ name: 'index.html', data: Buffer.from('hi') }, { name: '../../../home/user/.bashrc', data: Buffer.from('evil') }]);
      expectError(await upload(server, uploadForm({ file: { bytes: evil, filename: 'notes.zip' } }), token), 415);
    });

    it('415 for too many entries and for a bomb-like expanded size', async () => {
      const many = buildZip(Array.from({ length: 10_001 }, (_, i) => ({ name: `f${i}` })));
      expectError(await upload(server, uploadForm({ file: { bytes: many, filename: 'notes.zip' } }), token), 415, /more than 10000 entries/);
      const zeros = Buffer.alloc(1024 * 1024);
      const bomb = buildZip(Array.from({ length: 201 }, (_, i) => ({ name: `z${i}`, data: zeros, deflate: true })));
      expectError(await upload(server, uploadForm({ file: { bytes: bomb, filename: 'notes.zip' } }), token), 415, /200 MiB/);
    });

    it('415 for an entry that inflates past its declared size: 1.07 MiB declaring 1 KiB, inflating to 1,100 MiB', async () => {
      const liar = lyingZip(1100);
      expect(liar.length).to.be.within(1.05 * 1024 * 1024, 1.1 * 1024 * 1024);
      const res = await upload(server, uploadForm({ file: { bytes: liar, filename: 'notes.zip' } }), token);
      expectError(res, 415, `the archive's entry "app.bin" inflates past its declared size of 1024 bytes`);
    });

    it('415 for an entry whose CRC-32 does not match', async () => {
      const data = Buffer.from('<!doctype html><title>Notes</title>');
      const bad = buildZip([{ name: 'index.html', data, deflate: true, crc: 0x1234 }]);
      expectError(await upload(server, uploadForm({ file: { bytes: bad, filename: 'notes.zip' } }), token), 415, /"index.html" fails its CRC-32 check/);
    });

    it('415 for an icon or a screenshot that is not PNG, JPEG or WebP', async () => {
      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>');
      expectError(await upload(server, uploadForm({ icon: svg }), token), 415, 'icon must be a PNG, JPEG or WebP image');
      expectError(await upload(server, uploadForm({ icon: png, screenshots: [png, svg] }), token), 415, 'screenshots[1] must be a PNG, JPEG or WebP image');
    });

    it('404 when no project has that appName and appVersion', async () => {
      expectError(await upload(server, uploadForm({ fields: { version: '9.9' } }), token), 404, /appName "notes" and appVersion "9.9"/);
    });

    it('403 with the exact message for an unverified publisher, before the body is read', async () => {
      const id = await seedPublisher(server, 'new@example.com', false);
      await seedProject(server, 'fresh', '1.0', id);
      const res = await upload(server, uploadForm({ fields: { name: 'fresh' }, file: { bytes: png, filename: 'not-even-a.zip' } }), publisherToken(id, 'new@example.com'));
      expectError(res, 403, notVerified);
    });

    it('403 for a project of another publisher', async () => {
      const other = await seedPublisher(server, 'other@example.com');
      await seedProject(server, 'theirs', '1.0', other);
      expectError(await upload(server, uploadForm({ fields: { name: 'theirs' } }), token), 403, /owns the project/);
    });

    it('403 for a project without owner in production', async () => {
      await seedProject(server, 'orphan', '1.0', null);
      expectError(await upload(server, uploadForm({ fields: { name: 'orphan' } }), token), 403, /owns the project/);
    });

    it('401 for a token whose publisher no longer exists', async () => {
      expectError(await upload(server, uploadForm(), publisherToken(999_999)), 401);
    });
  });

  describe('an accepted upload', () => {
    let created: any;
    const pkg = smallZip();
    before(async () => {
      const res = await upload(
        server,
        uploadForm({ fields: { description: 'Takes notes', category: 'tools', semVer: '1.0.0' }, file: { bytes: pkg, filename: 'Notes.ZIP' }, icon: png, screenshots: [png, png] }),
        token,
      );
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      created = res.body;
    });

    it('answers 201 with the application record in SUBMISSION, without the package bytes', () => {
      expect(created).to.deep.include({
        name: 'notes',
        displayName: 'Notes',
        version: '1.0',
        description: 'Takes notes',
        category: 'tools',
        semVer: '1.0.0',
        status: 'SUBMISSION',
        publisherId: owner,
        packageSize: pkg.length,
        packageSha256: createHash('sha256').update(pkg).digest('hex'),
      });
      expect(created.id).to.be.a('number');
      expect(created).not.to.have.property('package');
      expect(created.createdAt).to.match(/Z$/);
    });

    it('stores the package bytes in the database', async () => {
      const row = await server.database.db.selectFrom('applications').select(['package', 'package_size', 'project_id']).where('id', '=', created.id).executeTakeFirstOrThrow();
      expect(Buffer.from(row.package!).equals(pkg)).to.equal(true);
      expect(row.package_size).to.equal(pkg.length);
      expect(created.projectId).to.equal(row.project_id);
    });

    it('appends ApplicationCreated with the record, not the bytes', async () => {
      const events = await server.database.db.selectFrom('events').select(['stream_id', 'event_type', 'data']).where('stream_id', '=', `application-${created.id}`).execute();
      expect(events.map((e) => e.event_type)).to.deep.equal(['ApplicationCreated']);
      expect(events[0]!.data).to.deep.include({ id: created.id, record: created, by: `publisher:${owner}` });
    });

    it('stores the icon and screenshots and serves them read-only at their URLs', async () => {
      expect(created.iconUrl).to.match(/^\/assets\/applications\/\d+-[0-9a-f]+\/icon\.png$/);
      expect(created.screenshotUrls).to.have.length(2);
      for (const url of [created.iconUrl, ...created.screenshotUrls]) {
        const res = await fetch(`${server.url}${url}`);
        expect(res.status, url).to.equal(200);
        expect(res.headers.get('content-type')).to.equal('image/png');
        expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
        expect(Buffer.from(await res.arrayBuffer()).equals(png)).to.equal(true);
      }
      const put = await fetch(`${server.url}${created.iconUrl}`, { method: 'PUT', body: 'x' });
      expect(put.status).to.equal(404);
      const missing = await fetch(`${server.url}/assets/applications/none/icon.png`);
      expect(missing.status).to.equal(404);
      expect(await missing.json()).to.include({ statusCode: 404 });
    });

    it('is what the catalog answers for the application', async () => {
      const res = await server.request('GET', `/catalog/v1/applications/${created.id}`, { token: server.token({ level: 'LV1' }) });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal(created);
    });

    it('409 for the same name and version again, on either path, storing nothing more', async () => {
      const before = await storedState(server);
      for (const route of ['/publish/app', '/publisher/app']) {
        expectError(await upload(server, uploadForm({ icon: png }), token, route), 409, /already been submitted/);
      }
      expect(await storedState(server)).to.deep.equal(before);
    });
  });

  describe('concurrent uploads of one name and version', () => {
    it('accept exactly one; the others answer 409 and leave no image behind', async () => {
      await seedProject(server, 'race', '1.0', owner);
      const answers = await Promise.all(Array.from({ length: 5 }, () => upload(server, uploadForm({ fields: { name: 'race' }, icon: png }), token)));
      expect(answers.map((a) => a.status).sort()).to.deep.equal([201, 409, 409, 409, 409]);
      const winner = answers.find((a) => a.status === 201)!.body;
      const { applications, assets } = await storedState(server);
      expect(applications.filter((a) => a.name === 'race').map((a) => a.id)).to.deep.equal([winner.id]);
      const imageOwners = assets.map((file) => Number(/^applications\/(\d+)-/.exec(file)?.[1]));
      expect(imageOwners.every((id) => applications.some((a) => a.id === id))).to.equal(true);
      expect(imageOwners.filter((id) => id === winner.id)).to.have.length(1);
    });
  });

  describe('the alias /publisher/app', () => {
    it('publishes as /publish/app does', async () => {
      await seedProject(server, 'notes', '2.0', owner);
      const res = await upload(server, uploadForm({ fields: { version: '2.0' } }), token, '/publisher/app');
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body).to.include({ version: '2.0', status: 'SUBMISSION', iconUrl: null });
      expect(res.body.screenshotUrls).to.deep.equal([]);
    });
  });
});

describe('publishing an app (development)', () => {
  let server: PublishingServer;
  before(async () => {
    server = await startPublishingServer({ APP_ENV: 'development' });
  });
  after(() => server.stop());

  it('accepts a project that has no owner', async () => {
    const id = await seedPublisher(server, 'dev@example.com');
    await seedProject(server, 'orphan', '1.0', null);
    const res = await upload(server, uploadForm({ fields: { name: 'orphan' } }), publisherToken(id));
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body).to.include({ name: 'orphan', publisherId: id, status: 'SUBMISSION' });
  });

  it('still refuses a project owned by another publisher', async () => {
    const me = await seedPublisher(server, 'me@example.com');
    const other = await seedPublisher(server, 'owner2@example.com');
    await seedProject(server, 'owned', '1.0', other);
    const res = await upload(server, uploadForm({ fields: { name: 'owned' } }), publisherToken(me));
    expect(res.status).to.equal(403);
  });
});
