import { expect } from 'chai';
import qs from 'qs';
import { parseListQuery, parseReadQuery } from '../../../src/domain/record/parse-record-query.js';
import { zoneKind } from '../../../src/projections/record/zone-kind.js';
import { gadgetKind, refusal } from './record-kinds.js';

/** A query string as the record area parses it. */
const list = (query: string) => parseListQuery(gadgetKind, qs.parse(query, { arrayLimit: 100 }));
const cond = (field: string, operator: string, value: unknown) => ({ type: 'compare', field: { relation: null, field }, operator, value });

describe('list query parameters', () => {
  it('defaults to the first 20 records, no condition, no sort', () => {
    expect(list('')).to.deep.equal({ fields: null, joins: [], where: null, sort: [], take: 20, skip: 0 });
  });

  describe('paging', () => {
    it('takes limit (or per_page), offset and page; page wins over offset', () => {
      expect(list('limit=10&page=3')).to.include({ take: 10, skip: 20 });
      expect(list('limit=10&offset=7')).to.include({ take: 10, skip: 7 });
      expect(list('limit=10&page=2&offset=7')).to.include({ take: 10, skip: 10 });
      expect(list('page=2')).to.include({ take: 20, skip: 20 });
      expect(list('per_page=5&limit=9')).to.include({ take: 5 });
      expect(list('limit=9&per_page=5')).to.include({ take: 9 });
    });

    it('refuses non-integers, limit over 100 or under 1, negative offsets and page 0', () => {
      expect(refusal(() => list('limit=ten'))).to.equal('Invalid limit. Number expected');
      expect(refusal(() => list('limit=1e2'))).to.equal('Invalid limit. Number expected');
      expect(refusal(() => list('limit=1.5'))).to.equal('Invalid limit. Number expected');
      expect(refusal(() => list('limit=5&limit=10'))).to.equal('Invalid limit. Number expected');
      expect(refusal(() => list('limit=101'))).to.equal('Invalid limit. At most 100 expected');
      expect(refusal(() => list('limit=0'))).to.equal('Invalid limit. At least 1 expected');
      expect(refusal(() => list('offset=-1'))).to.equal('Invalid offset. At least 0 expected');
      expect(refusal(() => list('page=0'))).to.equal('Invalid page. At least 1 expected');
    });

    it('takes cache 0 or 1 only', () => {
      expect(list('cache=0')).to.include({ take: 20 });
      expect(list('cache=1')).to.include({ take: 20 });
      expect(refusal(() => list('cache=abc'))).to.equal('Invalid cache. Number expected');
      expect(refusal(() => list('cache=2'))).to.equal('Invalid cache. At most 1 expected');
    });
  });

  describe('fields', () => {
    it('takes a comma list (alias select), the first occurrence only', () => {
      expect(list('fields=name,port').fields).to.deep.equal(['name', 'port']);
      expect(list('select=name').fields).to.deep.equal(['name']);
      expect(list('fields=name&fields=port').fields).to.deep.equal(['name']);
    });

    it('refuses unknown and excluded names', () => {
      expect(refusal(() => list('select=name,bogus'))).to.equal("Unknown field 'bogus' in select");
      expect(refusal(() => list('fields=name,secret'))).to.equal("Field 'secret' cannot be used in fields");
    });
  });

  describe('filter and or together (§2.4)', () => {
    const a = cond('name', '$eq', 'a');
    const b = cond('name', '$eq', 'b');
    const x = cond('port', '$eq', 1);
    const y = cond('port', '$eq', 2);

    it('AND-s filters; one or alone is a filter; several ors alone are OR-ed', () => {
      expect(list('filter=name||$eq||a&filter=name||$eq||b').where).to.deep.equal({ type: 'and', items: [a, b] });
      expect(list('or=name||$eq||a').where).to.deep.equal(a);
      expect(list('or=name||$eq||a&or=name||$eq||b').where).to.deep.equal({ type: 'or', items: [a, b] });
    });

    it('ORs the filters with the ors, the ors AND-ed among themselves', () => {
      expect(list('filter=port||$eq||1&or=name||$eq||a').where).to.deep.equal({ type: 'or', items: [x, a] });
      expect(list('filter=port||$eq||1&filter=port||$eq||2&or=name||$eq||a&or=name||$eq||b').where).to.deep.equal({
        type: 'or',
        items: [
          { type: 'and', items: [x, y] },
          { type: 'and', items: [a, b] },
        ],
      });
    });

    it('accepts the repeated, [] and [i] forms', () => {
      const expected = list('filter=name||$eq||a&filter=name||$eq||b').where;
      expect(list('filter[]=name||$eq||a&filter[]=name||$eq||b').where).to.deep.equal(expected);
      expect(list('filter[0]=name||$eq||a&filter[1]=name||$eq||b').where).to.deep.equal(expected);
      expect(list(qs.stringify({ filter: ['name||$eq||a', 'name||$eq||b'] })).where).to.deep.equal(expected);
    });

    it('lets s override filter and or, which are then not validated', () => {
      expect(list('s={"name":"a"}&filter=name||$bogus||x&or=nope').where).to.deep.equal(a);
    });

    it('refuses object-shaped values and more than 50 conditions', () => {
      expect(refusal(() => list('filter[a]=name||$eq||x'))).to.equal('Invalid filter. A list of strings expected');
      expect(refusal(() => list('s[a]=1'))).to.equal('Invalid search param. JSON expected');
      const many = (n: number, key = 'filter') => Array.from({ length: n }, (_, i) => `${key}=name||$ne||x${i}`).join('&');
      expect(list(many(50)).where).to.have.property('items').with.length(50);
      expect(refusal(() => list(many(51)))).to.equal('Too many conditions: at most 50');
      expect(refusal(() => list(`${many(30)}&${many(30, 'or')}`))).to.equal('Too many conditions: at most 50');
      const search = JSON.stringify({ $or: Array.from({ length: 51 }, (_, i) => ({ port: i })) });
      expect(refusal(() => list(`s=${encodeURIComponent(search)}`))).to.equal('Too many conditions: at most 50');
    });
  });

  describe('sort', () => {
    it('takes field,ASC|DESC in priority order, also on a to-one relation', () => {
      expect(list('sort=name,ASC&sort=id,DESC&sort=owner.email,ASC').sort).to.deep.equal([
        { field: { relation: null, field: 'name' }, order: 'ASC' },
        { field: { relation: null, field: 'id' }, order: 'DESC' },
        { field: { relation: 'owner', field: 'email' }, order: 'ASC' },
      ]);
    });

    it('refuses a missing or lower-case order, an empty field, and unknown or SQL names', () => {
      expect(refusal(() => list('sort=name'))).to.equal('Invalid sort order. ASC,DESC expected');
      expect(refusal(() => list('sort=name,asc'))).to.equal('Invalid sort order. ASC,DESC expected');
      expect(refusal(() => list('sort=name,ASC,id,DESC'))).to.equal('Invalid sort order. ASC,DESC expected');
      expect(refusal(() => list('sort=,ASC'))).to.equal('Invalid sort field. String expected');
      expect(refusal(() => list('sort=name;DROP TABLE x,ASC'))).to.equal("Unknown field 'name;DROP TABLE x' in sort");
      expect(refusal(() => list('sort=secret,ASC'))).to.equal("Field 'secret' cannot be used in sort");
      expect(refusal(() => list('sort=tags,ASC'))).to.equal("Field 'tags' cannot be sorted on");
      expect(refusal(() => list('sort=siblings.name,ASC'))).to.match(/to-many relation 'siblings'/);
    });
  });

  describe('join', () => {
    it('takes declared relations, with or without a field list', () => {
      expect(list('join=owner||email&join=siblings').joins).to.deep.equal([
        { relation: 'owner', fields: ['email'] },
        { relation: 'siblings', fields: null },
      ]);
      expect(parseListQuery(zoneKind, { join: ['parentZone', 'children||name'] }).joins).to.have.length(2);
    });

    it('refuses undeclared relations, unknown fields, empty names and the same relation twice', () => {
      expect(refusal(() => list('join=nope'))).to.equal("Unknown relation 'nope' in join");
      expect(refusal(() => list('join=owner||bogus'))).to.equal("Unknown field 'owner.bogus' in join");
      expect(refusal(() => list('join=owner||passwordHash'))).to.equal("Field 'owner.passwordHash' cannot be used in join");
      expect(refusal(() => list('join='.concat('||email')))).to.equal('Invalid join field. String expected');
      expect(refusal(() => list('join=owner&join=owner||email'))).to.equal("Relation 'owner' is joined twice");
    });
  });

  it('refuses unknown parameters', () => {
    expect(refusal(() => list('include_deleted=1'))).to.equal("Unknown query parameter 'include_deleted'");
  });
});

describe('read-one query parameters', () => {
  it('takes fields, join and cache only', () => {
    expect(parseReadQuery(gadgetKind, { fields: 'name', join: 'owner', cache: '0' })).to.deep.equal({
      fields: ['name'],
      joins: [{ relation: 'owner', fields: null }],
    });
    expect(refusal(() => parseReadQuery(gadgetKind, { filter: 'name||$eq||x' }))).to.equal("Unknown query parameter 'filter'");
  });
});
