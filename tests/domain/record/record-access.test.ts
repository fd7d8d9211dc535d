import { expect } from 'chai';
import type { Principal } from '../../../src/domain/access/principal.js';
import { checkWorkspaceOfNewRecord, deviceRecordAccess, scopeOf } from '../../../src/domain/record/record-access.js';
import { recordPage } from '../../../src/domain/record/record-page.js';
import { exportQueryOf } from '../../../src/domain/record/export-query.js';
import { refusal } from './record-kinds.js';

const w = '3f1c2a9e-5b7d-4c1e-9a4f-2d6b8e0c1a77';
const other = '9b2d4c1e-3f5a-4e6b-8c7d-1a2b3c4d5e6f';
const actor = (level: Principal['level'], workspace: string | null = w): Principal => ({ sub: 'u', workspace, level, groups: [], email: null });

describe('record access', () => {
  it('lets every level read and LV1/LV2 write', () => {
    expect([1, 2, 3, 4, 5].map((l) => deviceRecordAccess.read(actor(l as Principal['level'])))).to.deep.equal([true, true, true, true, true]);
    expect([1, 2, 3, 4, 5].map((l) => deviceRecordAccess.write(actor(l as Principal['level'])))).to.deep.equal([true, true, false, false, false]);
  });

  it('scopes LV1 by X-Workspace, else its token, else every workspace', () => {
    expect(scopeOf(actor(1), other)).to.deep.equal({ workspace: other });
    expect(scopeOf(actor(1), undefined)).to.deep.equal({ workspace: w });
    expect(scopeOf(actor(1, null), undefined)).to.deep.equal({ workspace: null });
  });

  it('scopes everybody else to the token’s workspace; another one named is forbidden', () => {
    expect(scopeOf(actor(4), undefined)).to.deep.equal({ workspace: w });
    expect(scopeOf(actor(2), w)).to.deep.equal({ workspace: w });
    expect(refusal(() => scopeOf(actor(2), other), 'forbidden')).to.match(/only LV1/);
  });

  it('creates in the token’s workspace below LV1, where the body says for LV1', () => {
    expect(() => checkWorkspaceOfNewRecord(actor(2), undefined, w)).not.to.throw();
    refusal(() => checkWorkspaceOfNewRecord(actor(2), undefined, other), 'forbidden');
    expect(() => checkWorkspaceOfNewRecord(actor(1), undefined, other)).not.to.throw();
    refusal(() => checkWorkspaceOfNewRecord(actor(1), w, other));
  });
});

describe('the list envelope', () => {
  it('derives page from the offset and keeps pageCount at least 1', () => {
    expect(recordPage([{}, {}, {}], 23, 10, 20)).to.deep.equal({ data: [{}, {}, {}], count: 3, total: 23, page: 3, pageCount: 3 });
    expect(recordPage([], 23, 10, 7)).to.include({ page: 1 });
    expect(recordPage([], 0, 20, 0)).to.deep.equal({ data: [], count: 0, total: 0, page: 1, pageCount: 1 });
  });
});

describe('the query object of an export', () => {
  it('becomes the shape of a parsed query string', () => {
    expect(exportQueryOf({ filter: ['a||$eq||1'], s: { a: 1 }, limit: 5, fields: 'a,b' })).to.deep.equal({
      filter: ['a||$eq||1'],
      s: '{"a":1}',
      limit: '5',
      fields: 'a,b',
    });
    expect(exportQueryOf(undefined)).to.deep.equal({});
    refusal(() => exportQueryOf({ filter: { a: 1 } }));
    refusal(() => exportQueryOf('limit=5'));
  });
});
