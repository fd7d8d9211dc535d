import busboy from 'busboy';
import type { Request } from 'express';
import { invalidRequest, payloadTooLarge, unsupportedMediaType } from '../../domain/domain-error.js';
import { publishLimits } from '../../domain/publishing/publish-limits.js';
import { isPublishFormField } from '../../domain/publishing/publish-form.js';
import type { PublishUpload, UploadedFile } from '../../domain/publishing/publish-upload.js';

const MiB = 1024 * 1024;

const fileLimits: Record<string, number> = {
  file: publishLimits.packageBytes,
  icon: publishLimits.imageBytes,
  screenshots: publishLimits.imageBytes,
};

/**
 * Streams the multipart form into memory within hard limits (spec §8: the package is held in
 * memory). The first limit crossed rejects at once and stops reading: the caller answers and
 * closes the connection, so a client never gets to send the rest of an oversized upload.
 */
export function readPublishUpload(req: Request): Promise<PublishUpload> {
  if (!req.is('multipart/form-data')) throw unsupportedMediaType('the upload must be multipart/form-data');
  if (Number(req.headers['content-length']) > publishLimits.requestBytes) {
    throw payloadTooLarge(`the request is larger than ${publishLimits.requestBytes / MiB} MiB`);
  }
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      limits: {
        // One byte over the largest file limit: every file limit is checked below, busboy's own cap is the backstop.
        fileSize: publishLimits.packageBytes + 1,
        files: 2 + publishLimits.screenshots,
        fields: publishLimits.fields,
        parts: publishLimits.parts,
        fieldSize: publishLimits.fieldBytes,
        fieldNameSize: 100,
        headerPairs: 20,
      },
    });
  } catch (error) {
    throw invalidRequest(`malformed multipart/form-data: ${error instanceof Error ? error.message : String(error)}`);
  }

  return new Promise((resolve, reject) => {
    const fields = new Map<string, string>();
    const upload: PublishUpload = { fields, file: null, icon: null, screenshots: [] };
    const seenFiles = new Set<string>();
    let received = 0;
    let failed = false;

    const countBytes = (chunk: Buffer) => {
      received += chunk.length;
      if (received > publishLimits.requestBytes) fail(payloadTooLarge(`the request is larger than ${publishLimits.requestBytes / MiB} MiB`));
    };
    function fail(error: Error) {
      if (failed) return;
      failed = true;
      req.off('data', countBytes);
      req.unpipe(parser);
      req.pause();
      reject(error);
    }

    parser.on('field', (name, value, info) => {
      if (info.nameTruncated) return fail(invalidRequest('a field name is too long'));
      if (info.valueTruncated) return fail(payloadTooLarge(`${name} is larger than ${publishLimits.fieldBytes / 1024} KiB`));
      if (Object.hasOwn(fileLimits, name)) return fail(invalidRequest(`${name} must be sent as a file`, `/body/${name}`));
      if (!isPublishFormField(name)) return fail(invalidRequest(`unknown form field "${name}"`, `/body/${name}`));
      if (fields.has(name)) return fail(invalidRequest(`${name} is given more than once`, `/body/${name}`));
      fields.set(name, value);
    });

    parser.on('file', (name, stream, info) => {
      stream.on('error', () => undefined);
      const limit = fileLimits[name];
      if (limit === undefined) return fail(invalidRequest(`unknown file field "${name}"`, `/body/${name}`));
      if (name !== 'screenshots' && seenFiles.has(name)) return fail(invalidRequest(`${name} is given more than once`, `/body/${name}`));
      if (name === 'screenshots' && upload.screenshots.length >= publishLimits.screenshots) {
        return fail(invalidRequest(`at most ${publishLimits.screenshots} screenshots are accepted`, '/body/screenshots'));
      }
      seenFiles.add(name);
      const file: UploadedFile = { filename: info.filename ?? '', bytes: Buffer.alloc(0) };
      if (name === 'file') upload.file = file;
      else if (name === 'icon') upload.icon = file;
      else upload.screenshots.push(file);
      const chunks: Buffer[] = [];
      let size = 0;
      const overLimit = () => fail(payloadTooLarge(`${name} is larger than ${limit / MiB} MiB`));
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > limit) overLimit();
        else chunks.push(chunk);
      });
      stream.on('limit', overLimit);
      stream.on('end', () => {
        // busboy cuts a file at its limit without an error: a truncated file is refused, never kept.
        if (stream.truncated) overLimit();
        else file.bytes = Buffer.concat(chunks, size);
      });
    });

    const tooMany = (what: string) => () => fail(payloadTooLarge(`the form has too many ${what}`));
    parser.on('partsLimit', tooMany('parts'));
    parser.on('filesLimit', tooMany('files'));
    parser.on('fieldsLimit', tooMany('fields'));
    parser.on('error', (error) => fail(invalidRequest(`malformed multipart/form-data: ${error instanceof Error ? error.message : String(error)}`)));
    parser.on('close', () => {
      if (!failed) resolve(upload);
    });
    req.on('data', countBytes);
    req.pipe(parser);
  });
}
