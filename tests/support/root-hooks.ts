import { dropTemplateDatabase } from './test-database.js';

export const mochaHooks = {
  async afterAll() {
    await dropTemplateDatabase();
  },
};
