import { expect } from 'chai';
import { DomainError } from '../../../src/domain/domain-error.js';
import type { RecordKind } from '../../../src/domain/record/record-kind.js';

/** A catalog-like kind: numeric server ids, no workspace, a to-one and a to-many relation. */
export const ownerKind: RecordKind = {
  name: 'owner',
  label: 'Owner',
  table: 'owners',
  id: { field: 'id', type: 'number', sequence: 'owners_id_seq' },
  fields: {
    id: { column: 'id', type: 'integer', readOnly: true },
    email: { column: 'email', type: 'string' },
  },
  excluded: ['passwordHash'],
  relations: {},
  events: { created: 'OwnerCreated', updated: 'OwnerUpdated', deleted: 'OwnerDeleted' },
};

export const gadgetKind: RecordKind = {
  name: 'gadget',
  label: 'Gadget',
  table: 'gadgets',
  id: { field: 'id', type: 'number', sequence: 'gadgets_id_seq' },
  fields: {
    id: { column: 'id', type: 'integer', readOnly: true },
    name: { column: 'name', type: 'string' },
    port: { column: 'port', type: 'integer' },
    weight: { column: 'weight', type: 'number', nullable: true, optional: true },
    active: { column: 'active', type: 'boolean' },
    releasedAt: { column: 'released_at', type: 'timestamp', nullable: true, optional: true },
    ownerId: { column: 'owner_id', type: 'integer', nullable: true, optional: true },
    tags: { column: 'tags', type: 'string[]' },
  },
  excluded: ['secret'],
  relations: {
    owner: { kind: () => ownerKind, cardinality: 'one', on: [['ownerId', 'id']] },
    siblings: { kind: () => gadgetKind, cardinality: 'many', on: [['ownerId', 'ownerId']] },
  },
  events: { created: 'GadgetCreated', updated: 'GadgetUpdated', deleted: 'GadgetDeleted' },
};

/** Runs `run`, expects a 400-class DomainError and answers its message. */
export function refusal(run: () => unknown, code: DomainError['code'] = 'invalid_request'): string {
  try {
    run();
  } catch (error) {
    expect(error, String(error)).to.be.instanceOf(DomainError);
    expect((error as DomainError).code).to.equal(code);
    return (error as DomainError).message;
  }
  expect.fail('expected a refusal');
}
