import type { Context } from 'mocha';
import { takePublishedEventViolations } from './published-event-schemas.js';
import { recordTest } from './slowest-tests.js';
import { dropTemplateDatabase, prepareTestDatabases } from './test-database.js';

export const mochaHooks = {
  /**
   * The template is made once, here, with time to spare: inside the first suite's `before` it would
   * spend that hook's 30 s on a slow machine. Runs of the pure domain tests alone need no database.
   */
  async beforeAll(this: Context) {
    this.timeout(300_000);
    const files = (this.test?.parent?.suites ?? []).map((suite) => suite.file ?? '');
    if (files.some((file) => !file.includes('/tests/domain/'))) await prepareTestDatabases();
  },
  afterEach(this: Context) {
    recordTest(this.currentTest);
    const violations = takePublishedEventViolations();
    if (violations.length > 0) throw new Error(`the service sent events that do not conform to asyncapi/booking-events.yaml:\n${violations.join('\n')}`);
  },
  async afterAll() {
    await dropTemplateDatabase();
  },
};
