import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createPublisherTokens } from '../../../src/infra/publishing/publisher-tokens.js';
import type { TestResponse, TestServer } from '../../support/test-server.js';
import { startTestServer } from '../../support/test-server.js';
import { smallZip } from '../../infra/publishing/build-zip.js';

export const publisherSecret = 'a-publisher-token-secret-for-tests-0123456789';

/** A 1×1 PNG. */
export const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

export type PublishingServer = TestServer & { dataDir: string };

/** The service with publishing on and its own DATA_DIR (its asset folder), production unless `env` says otherwise. */
export async function startPublishingServer(env: Record<string, string> = {}): Promise<PublishingServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'publishing-'));
  const server = await startTestServer({ PUBLISHER_TOKEN_SECRET: publisherSecret, DATA_DIR: dataDir, ...env });
  return {
    ...server,
    dataDir,
    async stop() {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function seedPublisher(server: TestServer, email: string, verified = true): Promise<number> {
  const row = await server.database.db.insertInto('publishers').values({ email, name: null, verified, oauth_provider: null, oauth_subject: null }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function seedProject(server: TestServer, appName: string, appVersion: string, publisherId: number | null): Promise<number> {
  const row = await server.database.db
    .insertInto('projects')
    .values({ app_name: appName, app_version: appVersion, publisher_id: publisherId, description: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export const publisherToken = (id: number, email = `publisher-${id}@example.com`) => createPublisherTokens(publisherSecret, 'roles').sign({ id, email });

export type UploadParts = {
  fields?: Record<string, string>;
  file?: { bytes: Buffer; filename: string; type?: string } | null;
  icon?: Buffer;
  screenshots?: Buffer[];
};

/** The multipart form of an upload: the required fields and a small package unless told otherwise. */
export function uploadForm({ fields = {}, file, icon, screenshots = [] }: UploadParts = {}): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries({ name: 'notes', displayName: 'Notes', version: '1.0', ...fields })) form.append(name, value);
  const blob = (bytes: Buffer, type: string) => new Blob([new Uint8Array(bytes)], { type });
  const pkg = file === undefined ? { bytes: smallZip(), filename: 'notes.zip' } : file;
  if (pkg) form.append('file', blob(pkg.bytes, pkg.type ?? 'application/zip'), pkg.filename);
  if (icon) form.append('icon', blob(icon, 'image/png'), 'icon.png');
  for (const [i, shot] of screenshots.entries()) form.append('screenshots', blob(shot, 'image/png'), `shot-${i}.png`);
  return form;
}

/** POSTs a form (or any body) to the upload route with a bearer token (none when null). */
export async function upload(server: TestServer, body: FormData | string, token: string | null, route = '/publish/app', headers: Record<string, string> = {}): Promise<TestResponse> {
  const response = await fetch(`${server.url}${route}`, {
    method: 'POST',
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body,
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = text;
  }
  return { status: response.status, body: parsed, headers: response.headers };
}

/** What publishing has stored: application rows (without bytes), their events, and the files of the asset folder. */
export async function storedState(server: PublishingServer) {
  const applications = await server.database.db.selectFrom('applications').select(['id', 'name', 'version', 'status']).orderBy('id').execute();
  const events = await server.database.db.selectFrom('events').select(['stream_id', 'event_type']).where('stream_id', 'like', 'application-%').execute();
  const assetsDir = path.join(server.dataDir, 'assets');
  const assets = fs.existsSync(assetsDir) ? (fs.readdirSync(assetsDir, { recursive: true }) as string[]).filter((f) => f.includes('.')) : [];
  return { applications, events, assets };
}
