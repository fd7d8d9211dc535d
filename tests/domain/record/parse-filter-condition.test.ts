import { expect } from 'chai';
import { parseFilterCondition } from '../../../src/domain/record/parse-filter-condition.js';
import { invalidOperatorMessage } from '../../../src/domain/record/query-operators.js';
import { deviceKind } from '../../../src/projections/record/device-kind.js';
import { gadgetKind, refusal } from './record-kinds.js';

const filter = (text: string) => parseFilterCondition(gadgetKind, text, 'filter');
const root = (field: string) => ({ relation: null, field });

describe('filter and or conditions', () => {
  it('reads field||operator||value, with short operator aliases', () => {
    expect(filter('name||$eq||router-1')).to.deep.equal({ type: 'compare', field: root('name'), operator: '$eq', value: 'router-1' });
    expect(filter('name||eq||router-1')).to.deep.equal(filter('name||$eq||router-1'));
  });

  it('types values by the field: numbers, booleans, times; a quoted value stays a string', () => {
    expect(filter('port||$gte||1000')).to.deep.include({ value: 1000 });
    expect(filter('active||$eq||true')).to.deep.include({ value: true });
    expect(filter('releasedAt||$lt||2026-01-01')).to.deep.include({ value: new Date('2026-01-01T00:00:00Z') });
    expect(filter('name||$eq||12')).to.deep.include({ value: '12' });
    expect(filter('name||$eq||"12"')).to.deep.include({ value: '12' });
    expect(filter('name||$eq||true')).to.deep.include({ value: 'true' });
  });

  it('splits list values on commas: $in, $notin, $between', () => {
    expect(filter('id||$in||1,2,3')).to.deep.include({ operator: '$in', value: [1, 2, 3] });
    expect(filter('name||$notin||retired,lost')).to.deep.include({ value: ['retired', 'lost'] });
    expect(filter('port||$between||10,20')).to.deep.include({ value: [10, 20] });
  });

  it('takes no value for $isnull and $notnull, and ignores one given', () => {
    expect(filter('ownerId||$isnull')).to.deep.include({ operator: '$isnull', value: null });
    expect(filter('ownerId||notnull||foo')).to.deep.include({ operator: '$notnull', value: null });
  });

  it('reaches fields of a to-one relation', () => {
    expect(filter('owner.email||$endsL||@example.com')).to.deep.include({ field: { relation: 'owner', field: 'email' } });
  });

  it('refuses unknown and L operators without $, with the original message', () => {
    expect(refusal(() => filter('name||$like||x'))).to.equal(invalidOperatorMessage);
    expect(refusal(() => filter('name||eqL||x'))).to.equal(invalidOperatorMessage);
    expect(refusal(() => filter('name||$EQ||x'))).to.equal(invalidOperatorMessage);
    expect(refusal(() => filter('name'))).to.equal(invalidOperatorMessage);
  });

  it('refuses missing, empty and null values', () => {
    for (const text of ['name||$eq', 'name||$eq||', 'name||$eq||null', 'id||$in||', 'id||$in||1,,2']) {
      expect(refusal(() => filter(text)), text).to.equal('Invalid filter value');
    }
    expect(refusal(() => parseFilterCondition(gadgetKind, 'name||$eq', 'or'))).to.equal('Invalid or value');
  });

  it('refuses $between without exactly two values, and values of the wrong type', () => {
    expect(refusal(() => filter('port||$between||1'))).to.equal("Invalid column 'port' value");
    expect(refusal(() => filter('port||$between||1,2,3'))).to.equal("Invalid column 'port' value");
    expect(refusal(() => filter('port||$eq||abc'))).to.equal("Invalid column 'port' value");
    expect(refusal(() => filter('port||$eq||1.5'))).to.equal("Invalid column 'port' value");
    expect(refusal(() => filter('active||$eq||yes'))).to.equal("Invalid column 'active' value");
    expect(refusal(() => filter('releasedAt||$eq||2026-01-01T10:00:00'))).to.equal("Invalid column 'releasedAt' value");
    for (const value of ['2026-02-30', '2026-02-30T10:00:00Z', '2027-01-05T10:00:00+25:00']) expect(refusal(() => filter(`releasedAt||$eq||${value}`)), value).to.equal("Invalid column 'releasedAt' value");
  });

  it('refuses an empty field and extra || parts', () => {
    expect(refusal(() => filter('||$eq||x'))).to.equal('Invalid field type in filter condition. String expected');
    expect(refusal(() => parseFilterCondition(gadgetKind, '||$eq||x', 'or'))).to.equal('Invalid field type in or condition. String expected');
    expect(refusal(() => filter('name||$eq||a||b'))).to.match(/<field>\|\|<operator>\|\|<value> expected/);
  });

  it('refuses unknown, excluded and SQL-carrying field names', () => {
    expect(refusal(() => filter('bogus||$eq||1'))).to.equal("Unknown field 'bogus' in filter");
    expect(refusal(() => filter('secret||$cont||a'))).to.equal("Field 'secret' cannot be used in filter");
    expect(refusal(() => parseFilterCondition(deviceKind, 'apiKeyHash||$cont||a', 'filter'))).to.equal("Field 'apiKeyHash' cannot be used in filter");
    for (const name of ['a.b) OR (1=1', 'name;drop table gadgets', '"name"', "name'", 'owner.email.x', 'siblings.name', 'api_key_hash', 'constructor', '__proto__']) {
      expect(() => filter(`${name}||$isnull`), name).to.throw();
    }
  });

  it('refuses operators that do not fit the field type', () => {
    expect(refusal(() => filter('port||$contL||1'))).to.match(/cannot be used on field 'port'/);
    expect(refusal(() => filter('active||$gt||true'))).to.match(/cannot be used on field 'active'/);
    expect(refusal(() => filter('tags||$eq||x'))).to.match(/cannot be used on field 'tags'/);
    expect(filter('tags||$notnull')).to.deep.include({ operator: '$notnull' });
  });
});
