import http from 'node:http';
import { expect } from 'chai';
import { publishLimits } from '../../../src/domain/publishing/publish-limits.js';
import { zipOfSize } from '../../infra/publishing/build-zip.js';
import { png, publisherToken, seedProject, seedPublisher, startPublishingServer, storedState, upload, uploadForm, type PublishingServer } from './publishing-api.js';

const MiB = 1024 * 1024;

type RawAnswer = { status: number; headers: http.IncomingHttpHeaders; body: any; bytesSent: number; connectionClosed: Promise<void> };

/**
 * Streams a multipart upload whose file part claims `fileBytes` bytes, in 64 KiB chunks, and
 * stops writing as soon as the server answers: how much was sent by then shows where it cut.
 */
function streamUpload(server: PublishingServer, token: string, fileBytes: number, headers: Record<string, string> = {}): Promise<RawAnswer> {
  const boundary = 'limit-test-boundary';
  const head = Buffer.from(
    `--${boundary}\r\ncontent-disposition: form-data; name="name"\r\n\r\nnotes\r\n` +
      `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="big.zip"\r\ncontent-type: application/zip\r\n\r\n`,
  );
  const url = new URL('/publish/app', server.url);
  return new Promise((resolve, reject) => {
    let bytesSent = 0;
    let answered = false;
    const req = http.request(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}`, ...headers },
    });
    const closed = new Promise<void>((done) => req.once('close', () => done()));
    req.on('error', () => undefined);
    req.on('response', (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(Buffer.concat(chunks).toString()), bytesSent, connectionClosed: closed }));
      res.on('error', reject);
    });
    const chunk = Buffer.alloc(64 * 1024, 1);
    const write = () => {
      if (answered) return;
      if (bytesSent === 0) {
        req.write(head);
        bytesSent += head.length;
      }
      while (bytesSent - head.length < fileBytes && !answered) {
        const ok = req.write(chunk);
        bytesSent += chunk.length;
        if (!ok) {
          req.once('drain', write);
          return;
        }
      }
      if (!answered) req.end(`\r\n--${boundary}--\r\n`);
    };
    write();
  });
}

describe('upload limits', () => {
  let server: PublishingServer;
  let token: string;
  before(async () => {
    server = await startPublishingServer();
    const id = await seedPublisher(server, 'big@example.com');
    token = publisherToken(id);
    await seedProject(server, 'notes', '1.0', id);
    await seedProject(server, 'notes', '2.0', id);
  });
  after(() => server.stop());

  it('accepts a package of exactly 10 MiB', async () => {
    const res = await upload(server, uploadForm({ file: { bytes: zipOfSize(publishLimits.packageBytes), filename: 'notes.zip' } }), token);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.packageSize).to.equal(10 * MiB);
  });

  it('refuses a ZIP one byte over 10 MiB with 413, storing nothing', async () => {
    const before = await storedState(server);
    const res = await upload(server, uploadForm({ fields: { version: '2.0' }, file: { bytes: zipOfSize(publishLimits.packageBytes + 1), filename: 'notes.zip' } }), token);
    expect(res.status).to.equal(413);
    expect(res.body).to.deep.equal({ statusCode: 413, message: 'file is larger than 10 MiB' });
    expect(await storedState(server)).to.deep.equal(before);
  });

  it('cuts the stream: answers 413 soon after 10 MiB and closes the connection without reading the rest', async () => {
    const res = await streamUpload(server, token, 200 * MiB);
    expect(res.status).to.equal(413);
    expect(res.headers.connection).to.equal('close');
    expect(res.bytesSent).to.be.below(20 * MiB);
    await res.connectionClosed;
  });

  it('answers 401 and 403 without reading a large body', async () => {
    const unverified = await seedPublisher(server, 'unverified-big@example.com', false);
    for (const [bearer, status] of [['not-a-token', 401], [publisherToken(unverified), 403]] as const) {
      const res = await streamUpload(server, bearer, 30 * MiB);
      expect(res.status).to.equal(status);
      expect(res.headers.connection).to.equal('close');
      expect(res.bytesSent).to.be.below(10 * MiB);
      await res.connectionClosed;
    }
  });

  it('refuses an icon or a screenshot over 2 MiB with 413', async () => {
    const big = Buffer.concat([png, Buffer.alloc(2 * MiB)]);
    const before = await storedState(server);
    expect((await upload(server, uploadForm({ fields: { version: '2.0' }, icon: big }), token)).status).to.equal(413);
    const res = await upload(server, uploadForm({ fields: { version: '2.0' }, screenshots: [png, big] }), token);
    expect(res.body).to.deep.equal({ statusCode: 413, message: 'screenshots is larger than 2 MiB' });
    expect(await storedState(server)).to.deep.equal(before);
  });

  it('refuses a request declaring more than 40 MiB before reading it', async () => {
    const res = await streamUpload(server, token, 1 * MiB, { 'content-length': String(41 * MiB) });
    expect(res.status).to.equal(413);
    expect(res.body.message).to.equal('the request is larger than 40 MiB');
    expect(res.bytesSent).to.be.below(2 * MiB);
  });

  it('refuses a text field over 16 KiB with 413', async () => {
    const res = await upload(server, uploadForm({ fields: { description: 'd'.repeat(16 * 1024 + 1) } }), token);
    expect(res.body).to.deep.equal({ statusCode: 413, message: 'description is larger than 16 KiB' });
  });
});
