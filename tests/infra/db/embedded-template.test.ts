import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { sql } from 'kysely';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { Kysely } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { createEmbeddedDatabase, type Database } from '../../../src/infra/db/database.js';
import { createEmbeddedTemplate } from '../../../src/infra/db/embedded-template.js';
import { migrateTo, migrateToLatest } from '../../../src/infra/db/migrate.js';
import { unpackDataDir } from '../../../src/infra/db/unpack-data-dir.js';
import { schemaListing } from '../../support/schema-listing.js';

/**
 * The first start of the embedded database unpacks a template (README, "First start"): it must be
 * the database every migration makes, one after the other, and stay migratable by the migrations
 * written after it was made.
 */
describe('the embedded database template (npm install makes it; the first start unpacks it)', function () {
  this.timeout(900_000);
  let template: Blob;

  before(async () => {
    template = await createEmbeddedTemplate();
  });

  it('holds the schema that the migrations make run one by one', async () => {
    const fromTemplate = createEmbeddedDatabase(undefined, template);
    const stepwise = createEmbeddedDatabase();
    try {
      const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(fromTemplate);
      for (const { name } of rows) await migrateTo(stepwise, name);
      await migrateToLatest(stepwise);
      const listing = await schemaListing(fromTemplate);
      expect(listing.filter((line) => line.startsWith('trigger '))).to.have.length.above(5);
      expect(await schemaListing(stepwise)).to.deep.equal(listing);
    } finally {
      await fromTemplate.destroy();
      await stepwise.destroy();
    }
  });

  it('takes the migrations written after it was made', async () => {
    // A template made one migration ago: the latest one undone, dumped, unpacked.
    const maker = new PGlite({ loadDataDir: template, extensions: { btree_gist } });
    const makerDb = new Kysely<unknown>({ dialect: new PGliteDialect(maker) }) as Database;
    const latest = createEmbeddedDatabase(undefined, template);
    try {
      const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name desc limit 2`.execute(makerDb);
      await migrateTo(makerDb, rows[1]!.name);
      const older = createEmbeddedDatabase(undefined, await maker.dumpDataDir('gzip'));
      try {
        await migrateToLatest(older);
        expect(await schemaListing(older)).to.deep.equal(await schemaListing(latest));
      } finally {
        await older.destroy();
      }
    } finally {
      await makerDb.destroy();
      await latest.destroy();
    }
  });

  it('unpacked as the first start does, opens as the database it was made from', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-template-'));
    const archive = path.join(dir, 'template.tar.gz');
    fs.writeFileSync(archive, Buffer.from(await template.arrayBuffer()));
    await unpackDataDir(archive, path.join(dir, 'data'));
    const unpacked = createEmbeddedDatabase(path.join(dir, 'data'));
    const loaded = createEmbeddedDatabase(undefined, template);
    try {
      await migrateToLatest(unpacked);
      expect(await schemaListing(unpacked)).to.deep.equal(await schemaListing(loaded));
    } finally {
      await unpacked.destroy();
      await loaded.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
