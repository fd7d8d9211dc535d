/** Every way a command or query can be refused; the API maps each code to one HTTP status. */
export type DomainErrorCode =
  | 'invalid_request'
  | 'forbidden'
  | 'not_found'
  | 'policy_violation'
  | 'booking_conflict'
  | 'slot_available'
  | 'invalid_transition'
  | 'outside_checkin_window'
  | 'already_registered'
  | 'resource_not_found'
  | 'record_conflict'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'dependency_unavailable'
  | 'bundle_member'
  | 'calendar_managed';

export type BookingConflict = { bookingId: string; startTime: string; endTime: string };

export type DomainErrorDetails = {
  /** The violated policy field, for policy_violation. */
  policy?: string;
  /** The blackout in the way, for policy_violation `blackout`. */
  blackoutId?: string;
  /** The existing bookings in the way, for booking_conflict. */
  conflicts?: BookingConflict[];
  /** The fewest free units of the resource in the asked occupied range (contract §21), for booking_conflict. */
  availableUnits?: number;
  /** The quota a booking would exceed, for policy_violation `quota`. */
  quotaId?: string;
  /** The 0-based index of the bundle item refused (contract §22), for not_found and policy_violation of a bundle. */
  item?: number;
  /** Field-level problems, for invalid_request. */
  errors?: { path: string; message: string }[];
};

/** Marks a domain error whichever copy of this module made it (see hasInstance below). */
const domainErrorBrand = Symbol.for('workspace-booking.domain-error');

export class DomainError extends Error {
  readonly [domainErrorBrand] = true;

  /**
   * `instanceof` by brand, not by prototype: a module loaded through a dynamic import() under the
   * test runner is a second copy of this file, and its refusals must still map to their statuses.
   */
  static override [Symbol.hasInstance](value: unknown): value is DomainError {
    return typeof value === 'object' && value !== null && (value as { [domainErrorBrand]?: unknown })[domainErrorBrand] === true;
  }

  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly details: DomainErrorDetails = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const invalidRequest = (message: string, path?: string) =>
  new DomainError('invalid_request', message, path ? { errors: [{ path, message }] } : {});
export const notFound = (what: string) => new DomainError('not_found', `${what} not found`);
export const forbidden = (message: string) => new DomainError('forbidden', message);
export const policyViolation = (policy: string, message: string) => new DomainError('policy_violation', message, { policy });
export const invalidTransition = (message: string) => new DomainError('invalid_transition', message);
/** A write that contradicts stored records (duplicate id, a zone with children, an app already submitted). */
export const recordConflict = (message: string) => new DomainError('record_conflict', message);
/** An upload over one of its size limits. */
export const payloadTooLarge = (message: string) => new DomainError('payload_too_large', message);
/** An upload whose content is not of an accepted type (not multipart, not a ZIP, not an image). */
export const unsupportedMediaType = (message: string) => new DomainError('unsupported_media_type', message);
