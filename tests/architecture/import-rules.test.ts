import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'chai';

const run = promisify(execFile);

/** Runs dependency-cruiser with the repository's rule set (.dependency-cruiser.cjs); answers its exit code and report. */
async function cruise(path: string): Promise<{ code: number; report: string }> {
  try {
    const { stdout } = await run('node_modules/.bin/depcruise', [path, '--config', '.dependency-cruiser.cjs', '--output-type', 'err']);
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
});
