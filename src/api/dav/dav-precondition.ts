import type { ErrorRequestHandler } from 'express';
import { element, xmlContentType, xmlDocument } from './multistatus.js';
import { dav, workspaceBooking } from './xml-names.js';

/**
 * A refusal that WebDAV names by a precondition (RFC 4918 §16): answered with its status and a
 * `DAV:error` body holding the precondition's element, e.g. 403 `DAV:need-privileges`, 403
 * `DAV:valid-sync-token`. Every other refusal under /dav/ is a DomainError in the contract's shape.
 */
export class DavPreconditionError extends Error {
  constructor(
    readonly status: number,
    readonly precondition: { ns: string; name: string },
    message: string,
  ) {
    super(message);
  }
}

export const needPrivileges = (message: string) => new DavPreconditionError(403, { ns: dav, name: 'need-privileges' }, message);

export const invalidSyncToken = (message: string) => new DavPreconditionError(403, { ns: dav, name: 'valid-sync-token' }, message);

/** The DAV:error body of a precondition refusal; anything else goes on to the service's error handler. */
export const davPreconditionHandler: ErrorRequestHandler = (error, _req, res, next) => {
  if (!(error instanceof DavPreconditionError)) return next(error);
  const body = element(dav, 'error', [element(error.precondition.ns, error.precondition.name), element(workspaceBooking, 'message', [error.message])]);
  res.status(error.status).set('Content-Type', xmlContentType).send(xmlDocument(body));
};
