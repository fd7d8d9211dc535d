import { expect } from 'chai';
import { parseSearch } from '../../../src/domain/record/parse-search.js';
import type { Condition } from '../../../src/domain/record/record-query.js';
import { gadgetKind, refusal } from './record-kinds.js';

const s = (value: unknown) => parseSearch(gadgetKind, JSON.stringify(value));
const eq = (field: string, value: unknown, operator = '$eq'): Condition =>
  ({ type: 'compare', field: { relation: null, field }, operator, value }) as Condition;

describe('the s search condition', () => {
  it('reads a field value as equality and null as IS NULL', () => {
    expect(s({ name: 'router-1' })).to.deep.equal(eq('name', 'router-1'));
    expect(s({ ownerId: null })).to.deep.equal(eq('ownerId', null, '$isnull'));
  });

  it('AND-s several fields and several operators of one field', () => {
    expect(s({ port: { $gte: 10, $lte: 20 } })).to.deep.equal({ type: 'and', items: [eq('port', 10, '$gte'), eq('port', 20, '$lte')] });
    expect(s({ id: 1, name: { $eq: 'Project1' } })).to.deep.equal({ type: 'and', items: [eq('id', 1), eq('name', 'Project1')] });
  });

  it('combines $or with the object’s other keys by AND', () => {
    expect(s({ $or: [{ name: 'a' }, { port: { $gt: 8000 } }], ownerId: { $notnull: true } })).to.deep.equal({
      type: 'and',
      items: [{ type: 'or', items: [eq('name', 'a'), eq('port', 8000, '$gt')] }, eq('ownerId', null, '$notnull')],
    });
  });

  it('AND-s a multi-operator object inside $or (not OR as the original did)', () => {
    expect(s({ $or: [{ port: { $gt: 18, $lt: 60 } }, { name: 'x' }] })).to.deep.equal({
      type: 'or',
      items: [{ type: 'and', items: [eq('port', 18, '$gt'), eq('port', 60, '$lt')] }, eq('name', 'x')],
    });
  });

  it('reads a field-level $or as OR of its operators, AND-ed with the rest', () => {
    expect(s({ name: { $or: { $isnull: true, $eq: 'x' } } })).to.deep.equal({ type: 'or', items: [eq('name', null, '$isnull'), eq('name', 'x')] });
    expect(s({ name: 'x', port: { $or: { $isnull: true, $eq: 1 } } })).to.deep.equal({
      type: 'and',
      items: [eq('name', 'x'), { type: 'or', items: [eq('port', null, '$isnull'), eq('port', 1)] }],
    });
  });

  it('keeps $and siblings instead of ignoring them', () => {
    expect(s({ $and: [{ name: 'x' }], port: 5 })).to.deep.equal({ type: 'and', items: [eq('name', 'x'), eq('port', 5)] });
  });

  it('reads a one-element $or or $and as its element, and {} as no condition', () => {
    expect(s({ $or: [{ id: 54 }] })).to.deep.equal(eq('id', 54));
    expect(s({})).to.equal(null);
  });

  it('reads {"$ne": null} as IS NOT NULL', () => {
    expect(s({ name: { $ne: null } })).to.deep.equal(eq('name', null, '$notnull'));
    expect(s({ name: { $eq: null } })).to.deep.equal(eq('name', null, '$isnull'));
  });

  it('takes list operators as arrays and operators without $', () => {
    expect(s({ id: { $in: [30, 31] } })).to.deep.equal(eq('id', [30, 31], '$in'));
    expect(s({ port: { gt: 5 } })).to.deep.equal(eq('port', 5, '$gt'));
  });

  it('refuses what is not a JSON object', () => {
    for (const text of ['', '{bad', 'null', 'true', '12', '"x"', '[1]']) {
      expect(refusal(() => parseSearch(gadgetKind, text)), text).to.equal('Invalid search param. JSON expected');
    }
    expect(refusal(() => parseSearch(gadgetKind, ['{}', '{}']))).to.equal('Invalid search param. JSON expected');
  });

  it('refuses arrays as values, unknown operators, unknown fields and bad shapes', () => {
    expect(refusal(() => s({ id: [1, 2] }))).to.equal("Invalid column 'id' value");
    expect(refusal(() => s({ name: { $foo: 'x' } }))).to.match(/Invalid comparison operator/);
    expect(refusal(() => s({ $not: [{ name: 'x' }] }))).to.equal("Invalid search operator '$not'");
    expect(refusal(() => s({ bogus: 1 }))).to.equal("Unknown field 'bogus' in s");
    expect(refusal(() => s({ secret: 'x' }))).to.equal("Field 'secret' cannot be used in s");
    expect(refusal(() => s({ $or: { name: 'x' } }))).to.match(/\$or needs a non-empty array/);
    expect(refusal(() => s({ $and: [] }))).to.match(/\$and needs a non-empty array/);
    expect(refusal(() => s({ name: {} }))).to.equal("Invalid column 'name' value");
    expect(refusal(() => s({ name: { $gt: null } }))).to.equal("Invalid column 'name' value");
    expect(refusal(() => s({ name: { $isnull: false } }))).to.equal("Invalid column 'name' value");
    expect(refusal(() => s({ port: { $between: [1] } }))).to.equal("Invalid column 'port' value");
    expect(refusal(() => s({ port: 'abc' }))).to.equal("Invalid column 'port' value");
  });

  it('limits nesting', () => {
    let deep: Record<string, unknown> = { name: 'x' };
    for (let i = 0; i < 9; i++) deep = { $and: [deep] };
    expect(refusal(() => s(deep))).to.match(/nested too deeply/);
  });
});
