import { takePublishedEventViolations } from './published-event-schemas.js';
import { dropTemplateDatabase } from './test-database.js';

export const mochaHooks = {
  afterEach() {
    const violations = takePublishedEventViolations();
    if (violations.length > 0) throw new Error(`the service sent events that do not conform to asyncapi/booking-events.yaml:\n${violations.join('\n')}`);
  },
  async afterAll() {
    await dropTemplateDatabase();
  },
};
