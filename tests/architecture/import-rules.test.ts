import { execFile } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';

const run = promisify(execFile);

const repository = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Runs dependency-cruiser with the repository's rule set (.dependency-cruiser.cjs) on `path`, seen
 * from `cwd` (the rules name paths under src/ of that folder); answers its exit code and report.
 */
async function cruise(path: string, cwd = repository): Promise<{ code: number; report: string }> {
  try {
    const { stdout } = await run(join(repository, 'node_modules/.bin/depcruise'), [path, '--config', join(repository, '.dependency-cruiser.cjs'), '--output-type', 'err'], { cwd });
    return { code: 0, report: stdout };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string };
    return { code: failed.code ?? 1, report: failed.stdout ?? String(error) };
  }
}

describe('import rules (npm run check:imports)', function () {
  this.timeout(60_000);

  it('src has no import circle and no arrow pointing back up a layer', async () => {
    const { code, report } = await cruise('src');
    expect(code, report).to.equal(0);
  });

  it('the rule set refuses an import circle', async () => {
    const { code, report } = await cruise('tests/architecture/circle-fixture');
    expect(code).to.not.equal(0);
    expect(report).to.include('no-circular');
  });

  describe('every layer rule refuses its climb (tests/architecture/layers-fixture: a src of one file per layer and root file)', () => {
    let report = '';
    before(async () => {
      const result = await cruise('src', join(repository, 'tests/architecture/layers-fixture'));
      expect(result.code, result.report).to.not.equal(0);
      report = result.report;
    });

    const refused: [rule: string, from: string, to: string][] = [
      ['domain-imports-down-only', 'src/domain/pure.ts', 'src/infra/adapter.ts'],
      ['domain-imports-down-only', 'src/domain/pure.ts', 'src/services.ts'],
      ['domain-imports-only-temporal-polyfill', 'src/domain/pure.ts', 'kysely/'],
      ['domain-imports-only-temporal-polyfill', 'src/domain/pure.ts', 'crypto'],
      ['infra-imports-down-only', 'src/infra/adapter.ts', 'src/projections/read-model.ts'],
      ['infra-imports-down-only', 'src/infra/adapter.ts', 'src/create-services.ts'],
      ['projections-imports-down-only', 'src/projections/read-model.ts', 'src/commands/command.ts'],
      ['projections-imports-down-only', 'src/projections/read-model.ts', 'src/services.ts'],
      ['projections-shape-no-http-answer', 'src/projections/read-model.ts', 'node_modules/express/'],
      ['projections-shape-no-http-answer', 'src/projections/read-model.ts', 'zlib'],
      ['projections-shape-no-http-answer', 'src/projections/read-model.ts', 'http'],
      ['commands-imports-down-only', 'src/commands/command.ts', 'src/workers/worker.ts'],
      ['commands-imports-down-only', 'src/commands/command.ts', 'src/open-event-store.ts'],
      ['command-folders-share-modules-only', 'src/commands/bundle/bundle.ts', 'src/commands/booking/book.ts'],
      ['command-folders-share-modules-only', 'src/commands/catalog/publish.ts', 'src/commands/booking/book.ts'],
      ['shared-command-modules-import-no-feature', 'src/commands/records/store.ts', 'src/commands/booking/book.ts'],
      ['workers-imports-down-only', 'src/workers/worker.ts', 'src/api/router.ts'],
      ['workers-imports-down-only', 'src/workers/worker.ts', 'src/create-services.ts'],
      ['workers-imports-down-only', 'src/workers/worker.ts', 'src/open-event-store.ts'],
      ['api-imports-down-only', 'src/api/router.ts', 'src/workers/worker.ts'],
      ['api-imports-down-only', 'src/api/router.ts', 'src/open-event-store.ts'],
      ['api-imports-down-only', 'src/api/router.ts', 'src/server.ts'],
      ['nothing-imports-main', 'src/server.ts', 'src/main.ts'],
      ['server-imports-down-only', 'src/server.ts', 'src/workers/worker.ts'],
      ['services-imports-down-only', 'src/services.ts', 'src/api/router.ts'],
      ['services-imports-down-only', 'src/services.ts', 'src/workers/worker.ts'],
      ['services-imports-down-only', 'src/services.ts', 'src/projections/read-model.ts'],
      ['services-imports-down-only', 'src/services.ts', 'src/create-services.ts'],
      ['create-services-imports-down-only', 'src/create-services.ts', 'src/api/router.ts'],
      ['create-services-imports-down-only', 'src/create-services.ts', 'src/workers/worker.ts'],
      ['create-services-imports-down-only', 'src/create-services.ts', 'src/server.ts'],
      ['open-event-store-imports-down-only', 'src/open-event-store.ts', 'src/commands/command.ts'],
      ['open-event-store-imports-down-only', 'src/open-event-store.ts', 'src/api/router.ts'],
      ['open-event-store-imports-down-only', 'src/open-event-store.ts', 'src/create-services.ts'],
    ];
    for (const [rule, from, to] of refused) {
      it(`${rule}: ${from} → ${to}`, () => {
        const line = report.split('\n').find((l) => l.includes(`${rule}: ${from} → `) && l.split(' → ')[1]!.includes(to));
        expect(line, report).to.not.equal(undefined);
      });
    }

    const allowed: [from: string, to: string][] = [
      ['src/domain/pure.ts', 'temporal-polyfill'],
      ['src/projections/read-model.ts', 'kysely'],
      ['src/workers/worker.ts', 'src/services.ts'],
      ['src/api/router.ts', 'src/services.ts'],
      ['src/main.ts', 'src/server.ts'],
      ['src/commands/bundle/bundle.ts', 'src/commands/placement/shared.ts'],
      ['src/commands/catalog/publish.ts', 'src/commands/records/store.ts'],
    ];
    for (const [from, to] of allowed) {
      it(`allows ${from} → ${to}`, () => {
        const refusal = report.split('\n').find((l) => !l.includes('no-circular') && l.includes(`: ${from} → `) && l.split(' → ')[1]!.includes(to));
        expect(refusal, report).to.equal(undefined);
      });
    }
  });
});
