import { writeEmbeddedTemplate } from '../src/infra/db/embedded-template.js';

// Run by `npm install` (`prepare`): the embedded database's first start then unpacks a migrated
// database instead of running initdb and every migration. Never fails the install: without the
// template, the first start creates the database the slow way.
const since = Date.now();
try {
  const file = await writeEmbeddedTemplate();
  console.log(`embedded database template written to ${file} in ${((Date.now() - since) / 1000).toFixed(1)} s`);
} catch (error) {
  console.warn(`no embedded database template (the first start will create the database itself): ${error instanceof Error ? error.message : String(error)}`);
}
