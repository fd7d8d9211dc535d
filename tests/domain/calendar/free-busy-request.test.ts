import { expect } from 'chai';
import { DomainError } from '../../../src/domain/domain-error.js';
import { parseFreeBusyRequest } from '../../../src/domain/calendar/free-busy-request.js';

const request = (start: string, end = '20270112T000000Z') =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'METHOD:REQUEST', 'BEGIN:VFREEBUSY', 'UID:fb', `DTSTART:${start}`, `DTEND:${end}`, 'ATTENDEE:mailto:room@resources.invalid', 'END:VFREEBUSY', 'END:VCALENDAR', ''].join('\r\n');

const refusalOf = (text: string) => {
  try {
    parseFreeBusyRequest(text);
  } catch (error) {
    return error;
  }
  throw new Error('accepted');
};

describe('a VFREEBUSY request', () => {
  it('takes a UTC range', () => {
    const { range, attendees } = parseFreeBusyRequest(request('20270105T000000Z'));
    expect([range.start.toString(), range.end.toString(), attendees]).to.deep.equal(['2027-01-05T00:00:00Z', '2027-01-12T00:00:00Z', ['mailto:room@resources.invalid']]);
  });

  for (const value of ['garbage', '20270105', '20270105T000000', '20271305T000000Z', '20270231T000000Z', '2027-01-05T00:00:00Z', '']) {
    it(`refuses DTSTART:${value} with a 400 naming the form it takes, not a failure of the parser`, () => {
      const refusal = refusalOf(request(value));
      expect(refusal).to.be.instanceOf(DomainError);
      expect(refusal).to.include({ code: 'invalid_request', message: 'DTSTART of a VFREEBUSY must be a UTC date-time (YYYYMMDDThhmmssZ)' });
    });
  }

  it('refuses a DTEND that is no date-time the same way', () => {
    expect(refusalOf(request('20270105T000000Z', 'soon'))).to.include({ message: 'DTEND of a VFREEBUSY must be a UTC date-time (YYYYMMDDThhmmssZ)' });
  });
});
