import { expect } from 'chai';
import { DomainError } from '../../../src/domain/domain-error.js';
import { validateRecordInput } from '../../../src/domain/record/validate-record-input.js';
import { deviceKind } from '../../../src/projections/record/device-kind.js';
import { zoneKind } from '../../../src/projections/record/zone-kind.js';
import { gadgetKind, refusal } from './record-kinds.js';

const workspace = '3f1c2a9e-5b7d-4c1e-9a4f-2d6b8e0c1a77';
const device = {
  id: 'd1', shortName: 'D1', name: 'Router', type: 'router', visible: true, extra: { a: 1 }, decoder: 'x',
  extName: 'e', enableAlert: false, timeout: 30, stateRef: ['on'], workspace,
};

function errorsOf(run: () => unknown) {
  try {
    run();
  } catch (error) {
    return (error as DomainError).details.errors;
  }
  return expect.fail('expected a refusal');
}

describe('record bodies', () => {
  it('takes a whole device on create and replace, in the kind’s field order', () => {
    const { workspace: w, ...rest } = device;
    expect(Object.keys(validateRecordInput(deviceKind, { workspace: w, ...rest }, 'create'))).to.deep.equal(Object.keys(deviceKind.fields));
    expect(validateRecordInput(deviceKind, device, 'replace')).to.deep.equal(device);
  });

  it('requires every device field on create and replace', () => {
    for (const field of Object.keys(device)) {
      const { [field]: _left, ...body } = device as Record<string, unknown>;
      expect(errorsOf(() => validateRecordInput(deviceKind, body, 'create')), field).to.deep.equal([{ path: `/body/${field}`, message: `field '${field}' is required` }]);
    }
  });

  it('checks types: extra an object, stateRef strings, timeout a number, workspace a uuid', () => {
    const bad = { extra: [1], stateRef: ['a', 1], timeout: '5', visible: 'yes', workspace: 'not-a-uuid', name: null };
    const errors = errorsOf(() => validateRecordInput(deviceKind, { ...device, ...bad }, 'create'))!;
    expect(errors.map((e) => e.path)).to.have.members(Object.keys(bad).map((name) => `/body/${name}`));
  });

  it('refuses unknown, excluded and server-set fields', () => {
    expect(refusal(() => validateRecordInput(deviceKind, { ...device, apiKeyHash: 'x' }, 'create'))).to.match(/unknown field 'apiKeyHash'/);
    expect(refusal(() => validateRecordInput(gadgetKind, { id: 5, name: 'x' }, 'update'))).to.match(/'id' is set by the server/);
    expect(refusal(() => validateRecordInput(deviceKind, [device], 'create'))).to.match(/must be a JSON object/);
  });

  it('takes any non-empty part on update', () => {
    expect(validateRecordInput(deviceKind, { name: 'n' }, 'update')).to.deep.equal({ name: 'n' });
    expect(refusal(() => validateRecordInput(deviceKind, {}, 'update'))).to.match(/nothing to update/);
  });

  it('sets a left-out optional nullable field to null on create and replace', () => {
    expect(validateRecordInput(zoneKind, { id: 'z', name: 'Z', workspace }, 'replace')).to.deep.equal({ id: 'z', name: 'Z', parentZoneId: null, workspace });
    expect(validateRecordInput(zoneKind, { parentZoneId: null }, 'update')).to.deep.equal({ parentZoneId: null });
  });

  it('normalises uuids to lower case and times to UTC', () => {
    expect(validateRecordInput(zoneKind, { workspace: workspace.toUpperCase() }, 'update')).to.deep.equal({ workspace });
    expect(validateRecordInput(gadgetKind, { releasedAt: '2026-03-29T03:00:00+02:00' }, 'update')).to.deep.equal({ releasedAt: '2026-03-29T01:00:00.000Z' });
    expect(refusal(() => validateRecordInput(gadgetKind, { releasedAt: '2026-03-29T03:00:00' }, 'update'))).to.match(/ISO 8601/);
  });

  it('refuses a time shaped as one that is none, as every route does (a day its month lacks is not moved to the next month)', () => {
    for (const releasedAt of ['2026-02-30T10:00:00Z', '0000-00-00T00:00:00Z', '2027-01-05T10:00:00+25:00']) {
      expect(refusal(() => validateRecordInput(gadgetKind, { releasedAt }, 'update')), releasedAt).to.match(/ISO 8601/);
    }
  });
});
