// Without DB_HOST every database test runs on in-memory PGlite, whose work is single-threaded in the
// test process: the files are then spread over one process per CPU. On a PostgreSQL server (CI) the
// files run in one process, in order, since several of them start service processes of their own.
const { availableParallelism } = require('node:os');

module.exports = {
  'node-option': ['import=tsx'],
  extension: ['ts'],
  require: ['tests/support/root-hooks.ts'],
  timeout: 30000,
  exit: true,
  ...(process.env.DB_HOST ? {} : { parallel: true, jobs: Math.max(2, availableParallelism()) }),
};
