/** Streams `<kind>-<id>` (purchases: `purchase-<workspace>-<id>`); data as every record event's. */
export const catalogRecordEvents = {
  project: { created: 'ProjectCreated', updated: 'ProjectUpdated', deleted: 'ProjectDeleted' },
  application: { created: 'ApplicationCreated', updated: 'ApplicationUpdated', deleted: 'ApplicationDeleted' },
  purchase: { created: 'PurchaseCreated', updated: 'PurchaseUpdated', deleted: 'PurchaseDeleted' },
  publisher: { created: 'PublisherCreated', updated: 'PublisherUpdated', deleted: 'PublisherDeleted' },
} as const;

/** A reviewer's move, on the application's stream: the record event's data plus from and to. */
export const applicationStatusChanged = 'ApplicationStatusChanged';
