import { expect } from 'chai';
import type { ZoneRecord } from '../../../src/domain/record/device-record.js';
import { checkZoneParent, orderParentsFirst } from '../../../src/domain/record/zone-hierarchy.js';
import { refusal } from './record-kinds.js';

const w = '3f1c2a9e-5b7d-4c1e-9a4f-2d6b8e0c1a77';
const zone = (id: string, parentZoneId: string | null, workspace = w): ZoneRecord => ({ id, name: id, parentZoneId, workspace });

describe('zone hierarchy', () => {
  it('accepts a root zone and a parent that exists outside the zone’s own subtree', () => {
    expect(() => checkZoneParent('a', null, null)).not.to.throw();
    expect(() => checkZoneParent('a1', 'b', ['b', 'root'])).not.to.throw();
  });

  it('refuses a parent that does not exist in the workspace', () => {
    expect(refusal(() => checkZoneParent('a', 'ghost', null))).to.match(/parent zone 'ghost' does not exist/);
  });

  it('refuses the zone itself and its descendants as parent (a cycle)', () => {
    expect(refusal(() => checkZoneParent('a', 'a', ['a', 'root']))).to.match(/cycle/);
    expect(refusal(() => checkZoneParent('root', 'a1', ['a1', 'a', 'root']))).to.match(/cycle/);
  });

  it('orders new zones so that parents come before their children', () => {
    const ordered = orderParentsFirst([zone('a1', 'a'), zone('a', 'root'), zone('root', null), zone('b', 'existing')], (z) => z.parentZoneId === 'existing');
    expect(ordered.map((z) => z.id)).to.deep.equal(['root', 'a', 'a1', 'b']);
  });

  it('keeps workspaces apart: a same-named zone of another workspace is no parent', () => {
    expect(refusal(() => orderParentsFirst([zone('a', null, 'other'), zone('a1', 'a')], () => false))).to.match(/parent zone 'a' of 'a1' does not exist/);
  });

  it('refuses parents that exist nowhere and cycles among the new zones', () => {
    expect(refusal(() => orderParentsFirst([zone('a', 'ghost')], () => false))).to.match(/does not exist/);
    expect(refusal(() => orderParentsFirst([zone('a', 'b'), zone('b', 'a')], () => false))).to.match(/cycle/);
    expect(refusal(() => orderParentsFirst([zone('a', 'a')], () => true))).to.match(/cycle/);
  });
});
