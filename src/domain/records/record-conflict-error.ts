/** A write that contradicts stored records (duplicate id, zone with children): answered 409. */
export class RecordConflictError extends Error {
  readonly status = 409;

  constructor(message: string) {
    super(message);
    this.name = 'RecordConflictError';
  }
}
