import { Parser } from '@asyncapi/parser';
import { expect } from 'chai';
import { asyncApiText, assertPublishedEvent, documentedEventNames } from '../support/published-event-schemas.js';

describe('The AsyncAPI description of the event stream', () => {
  it('is a valid AsyncAPI 3.0 document', async () => {
    const { document, diagnostics } = await new Parser().parse(asyncApiText);
    const errors = diagnostics.filter((d) => d.severity === 0).map((d) => `${d.path.join('.')}: ${d.message}`);
    expect(errors).to.deep.equal([]);
    expect(document?.version()).to.equal('3.0.0');
  });

  it('describes one message per event kind of contract §8 and §14', () => {
    expect(documentedEventNames).to.have.members([
      'booking.create', 'booking.confirm', 'booking.reschedule', 'booking.cancel', 'booking.checkin', 'booking.checkout',
      'booking.complete', 'booking.no_show', 'booking.reminder', 'booking.approval_reminder',
      'resource.register', 'resource.update', 'resource.deactivate', 'resource.activate', 'resource.remove',
      'device.delete', 'zone.delete', 'blackout.create', 'blackout.delete', 'waitlist.join', 'waitlist.fulfil', 'waitlist.close',
    ]);
  });

  it('refuses an envelope without its position or with a wrong data shape', () => {
    const booking = {
      id: '3f1f5a52-7d4b-4f2e-9a57-0b1c2d3e4f50', bookableResourceId: '5a1f5a52-7d4b-4f2e-9a57-0b1c2d3e4f51',
      resourceId: 'zone-1', resourceType: 'zone', bookerEmail: null, bookerProfileId: 'user-1', createdBy: 'assistant-1',
      startTime: '2026-12-01T09:00:00Z', endTime: '2026-12-01T10:00:00Z', status: 'confirmed', title: 'Sync',
      workspace: '6f1c2f4e-8a4b-4c1e-9a57-3b2f0e1d9c11', isSeriesParent: false, bundleId: null, calendarUid: null, units: 1,
    };
    const envelope = { id: '7e1f5a52-7d4b-4f2e-9a57-0b1c2d3e4f52', event: 'booking.create', timestamp: '2026-11-22T10:00:00Z', workspace: booking.workspace, position: 7, data: booking };
    assertPublishedEvent(envelope);
    expect(() => assertPublishedEvent({ ...envelope, position: undefined })).to.throw(/position/);
    expect(() => assertPublishedEvent({ ...envelope, event: 'booking.cancel' })).to.throw(/cancelledBy/);
    expect(() => assertPublishedEvent({ ...envelope, event: 'booking.teleport' })).to.throw(/no message/);
  });
});
