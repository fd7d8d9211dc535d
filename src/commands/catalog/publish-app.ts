import { createHash, randomBytes } from 'node:crypto';
import { invalidRequest, recordConflict } from '../../domain/domain-error.js';
import { decidePublish, type PublishingPublisher } from '../../domain/publishing/decide-publish.js';
import { publishFormOf } from '../../domain/publishing/publish-form.js';
import { publishImagesOf, type PublishImage } from '../../domain/publishing/publish-images.js';
import type { PublishUpload } from '../../domain/publishing/publish-upload.js';
import type { RecordJson } from '../../domain/record/record-kind.js';
import { checkZipPackage } from '../../infra/publishing/check-zip-package.js';
import type { EnabledPublishing } from '../../infra/publishing/publishing.js';
import { findProjectForApp, isAppSubmitted, storeApplicationPackage } from '../../projections/record/catalog/publishing-queries.js';
import { nextRecordId } from '../../projections/record/record-rows.js';
import { applications } from './catalog-records.js';
import type { CommandContext } from '../command-context.js';
import { writeRecord } from '../records/write-record.js';

/**
 * Judges an upload (400 form, 415 package and images, then decidePublish: 403, 404, 403, 409),
 * then puts the images in the bucket and creates the application (ApplicationCreated) with its
 * package in one transaction. Nothing stays stored when any step refuses or fails.
 */
export async function publishApp(ctx: CommandContext, publishing: EnabledPublishing, publisher: PublishingPublisher, upload: PublishUpload): Promise<RecordJson> {
  const form = publishFormOf(upload.fields);
  if (!upload.file) throw invalidRequest('file is required', '/body/file');
  const pkg = upload.file.bytes;
  await checkZipPackage(upload.file.filename, pkg);
  const images = publishImagesOf(upload.icon, upload.screenshots);
  const [project, alreadySubmitted] = await Promise.all([findProjectForApp(ctx.db, form.name, form.version), isAppSubmitted(ctx.db, form.name, form.version)]);
  const application = decidePublish(form, { publisher, project, alreadySubmitted, strictOwnership: publishing.strictOwnership });

  const id = await nextRecordId(ctx.db, applications.kind.id.sequence!);
  // A bucket outlives a database reset: a random part keeps a reused id from meeting old objects.
  const folder = `applications/${id}-${randomBytes(6).toString('hex')}`;
  const storedKeys: string[] = [];
  const store = async (image: PublishImage) => {
    const key = `${folder}/${image.name}.${image.type.extension}`;
    const url = await publishing.assets.put(key, image.bytes, image.type.contentType);
    storedKeys.push(key);
    return url;
  };
  try {
    const iconUrl = images.icon ? await store(images.icon) : null;
    const screenshotUrls: string[] = [];
    for (const screenshot of images.screenshots) screenshotUrls.push(await store(screenshot));
    const record: RecordJson = {
      id,
      ...application,
      packageSize: pkg.length,
      packageSha256: createHash('sha256').update(pkg).digest('hex'),
      iconUrl,
      screenshotUrls,
    };
    const written = await writeRecord(
      ctx,
      applications,
      { workspace: null, id },
      `publisher:${publisher.id}`,
      (current) => {
        if (current) throw recordConflict(`Application '${id}' already exists`);
        return { change: 'created', record };
      },
      { alsoWrite: (trx) => storeApplicationPackage(trx, id, pkg) },
    );
    return written!;
  } catch (error) {
    await removeImages(ctx, publishing, storedKeys);
    throw error;
  }
}

async function removeImages(ctx: CommandContext, publishing: EnabledPublishing, keys: string[]): Promise<void> {
  for (const key of keys) {
    try {
      await publishing.assets.remove(key);
    } catch (error) {
      ctx.logger.error({ err: error, key }, 'could not remove an image of a refused upload');
    }
  }
}
