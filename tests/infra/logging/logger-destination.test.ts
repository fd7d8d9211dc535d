import { setImmediate as turn } from 'node:timers/promises';
import { expect } from 'chai';
import { createLogger } from '../../../src/infra/logger.js';
import { collected } from '../../support/collected-stream.js';

describe('the logger of a script whose stdout is its answer', () => {
  for (const readable of [false, true]) {
    it(`writes its ${readable ? 'readable' : 'JSON'} lines to the destination it is given`, async () => {
      const destination = collected();
      const logger = createLogger('warn', readable, destination.stream);
      logger.warn({ slot: 3 }, 'runner behind');
      logger.info('left out below warn');
      // The readable form reaches its destination through a stream pipeline, a turn later.
      await turn();
      const text = destination.text();
      expect(text).to.contain('runner behind');
      expect(text).not.to.contain('left out below warn');
      if (!readable) expect(JSON.parse(text)).to.include({ level: 40, msg: 'runner behind', slot: 3 });
    });
  }
});
