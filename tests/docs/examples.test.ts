import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { containsStated, extractExamples, statedAnswer, untaggedCommandLines, type DocExample } from '../support/doc-examples.js';
import { runDocExample, type ExampleRun } from '../support/run-doc-example.js';
import { runScript } from '../support/run-script.js';
import { createScratchDatabase, postgresServer, type ScratchDatabase } from '../support/scratch-database.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';

const documents = ['README.md', ...readdirSync('docs').filter((name) => name.endsWith('.md')).sort().map((name) => `docs/${name}`)];
const examplesByFile = documents.map((file) => ({ file, examples: extractExamples(file, readFileSync(file, 'utf8')) }));

/** Every call of the run answered as the text says: the stated ones as stated, the others with success. */
function answerProblems(example: DocExample, run: ExampleRun): string[] {
  const problems: string[] = [];
  const stated = new Set<number>();
  if (run.stated.length !== example.answers.length) problems.push(`${example.file}:${example.line}: ${example.answers.length} answers stated, ${run.stated.length} reached`);
  example.answers.forEach(({ line }, k) => {
    const mark = run.stated[k];
    const call = mark && mark.call >= 0 ? run.calls[mark.call] : undefined;
    if (!mark || !call) return void problems.push(`${example.file}:${line}: states an answer, but no HTTP call was made before it`);
    if (stated.has(mark.call)) return void problems.push(`${example.file}:${line}: states a second answer for the same call`);
    stated.add(mark.call);
    const answer = statedAnswer(example.file, line, mark.text);
    if (call.status !== answer.status) problems.push(`${example.file}:${line}: says ${answer.status}, the service answered ${call.status}: ${call.body.slice(0, 600)}`);
    else if (answer.body !== undefined && !containsStated(call.body, answer.body)) {
      problems.push(`${example.file}:${line}: says the answer holds ${JSON.stringify(answer.body)}, it was: ${call.body.slice(0, 1200)}`);
    }
  });
  run.calls.forEach((call, index) => {
    if (!stated.has(index) && (call.status < 200 || call.status >= 400)) problems.push(`${example.file}:${example.line}: call ${index + 1} answered ${call.status}, which the text does not say: ${call.body.slice(0, 600)}`);
  });
  return problems;
}

// Runs as a reader would after `npm start` and `npm run seed`: a service process of its own, seeded.
describe('the shell examples of README.md and docs/ (docs/examples.md)', function () {
  this.timeout(90_000);
  let database: ScratchDatabase | undefined;
  let dataDir: string;
  let service: ServiceProcess;
  let env: Record<string, string>;

  before(async function () {
    // Without DB_HOST the service creates its embedded database first: 7 s on a quiet machine, minutes on a busy one.
    this.timeout(postgresServer ? 300_000 : 900_000);
    dataDir = await mkdtemp(path.join(tmpdir(), 'examples-'));
    // On PostgreSQL a scratch database; without DB_HOST the embedded one, as `npm start` makes it.
    database = postgresServer ? await createScratchDatabase('examples') : undefined;
    service = await startServiceProcess({ ...(database?.env ?? {}), APP_ENV: 'development', DATA_DIR: dataDir, WEB_CONCURRENCY: '1' });
    const port = new URL(service.url).port;
    const seeded = await runScript('seed', [], { DATA_DIR: dataDir, PORT: port });
    expect(seeded.code, seeded.stderr).to.equal(0);
    // The seed's `export NAME=value …` lines: its tokens, resource ids and days.
    const exportLines = seeded.stdout.split('\n').filter((line) => /^\s*export /.test(line)).map((line) => line.replace(/#.*/, ''));
    const exported = Object.fromEntries(exportLines.flatMap((line) => [...line.matchAll(/\b([A-Z][A-Z0-9_]*)=(\S+)/g)].map((match) => [match[1]!, match[2]!])));
    env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), PORT: port, BASE: `http://localhost:${port}`, DATA_DIR: dataDir, ...exported };
  });
  after(async () => {
    await service?.stop();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('finds the examples, and a reason beside each one it does not run', () => {
    const all = examplesByFile.flatMap(({ examples }) => examples);
    expect(all.filter((example) => example.notRun === undefined)).to.have.length.greaterThan(10);
    expect(all.filter((example) => example.notRun === '').map((example) => `${example.file}:${example.line}`)).to.deep.equal([]);
    // A command in a block without a language would be neither run nor counted.
    const untagged = documents.flatMap((file) => untaggedCommandLines(readFileSync(file, 'utf8')).map((line) => `${file}:${line}`));
    expect(untagged, 'shell commands in blocks not marked sh').to.deep.equal([]);
  });

  for (const { file, examples } of examplesByFile) {
    describe(file, () => {
      let session: string;
      before(async () => (session = await mkdtemp(path.join(tmpdir(), 'example-session-'))));
      after(() => rm(session, { recursive: true, force: true }));

      examples.forEach((example, index) => {
        if (example.notRun !== undefined) {
          it(`${file}:${example.line} is not run: ${example.notRun}`, function () {
            this.skip();
          });
          return;
        }
        it(`${file}:${example.line} answers as the text says`, async () => {
          const run = await runDocExample(example, env, session, index);
          expect(run.code, `${file}:${example.line} exited ${run.code}\n${run.stderr}\n${run.stdout.slice(0, 2000)}`).to.equal(0);
          expect(answerProblems(example, run)).to.deep.equal([]);
        });
      });
    });
  }
});
