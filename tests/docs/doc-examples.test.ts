import { expect } from 'chai';
import { containsStated, extractExamples, statedAnswer, untaggedCommandLines } from '../support/doc-examples.js';

describe('the shell examples’ convention (docs/examples.md)', () => {
  const markdown = [
    '# A page',
    '```sh',
    'curl -s "$BASE/a"',
    '# → 201 {"status":"pending"}',
    '```',
    '',
    '<!-- not run: needs Docker -->',
    '```bash',
    'docker compose up',
    '```',
    '- a list item:',
    '  ```shell',
    '  curl -s "$BASE/b"',
    '  ```',
    '```json',
    '{"not": "a shell block"}',
    '```',
  ].join('\n');

  it('finds every sh, bash and shell block, with its stated answers and whether it runs', () => {
    const examples = extractExamples('page.md', markdown);
    expect(examples.map((example) => [example.line, example.notRun, example.code])).to.deep.equal([
      [2, undefined, 'curl -s "$BASE/a"\n# → 201 {"status":"pending"}'],
      [8, 'needs Docker', 'docker compose up'],
      [12, undefined, 'curl -s "$BASE/b"'],
    ]);
    expect(examples[0]!.answers).to.deep.equal([{ line: 4, status: 201, body: { status: 'pending' } }]);
  });

  it('refuses a stated answer it cannot read, naming its line', () => {
    expect(() => extractExamples('page.md', '```sh\ncurl x\n# → 200 {oops\n```')).to.throw('page.md:3');
    expect(() => statedAnswer('page.md', 9, 'created')).to.throw('page.md:9');
    expect(() => extractExamples('page.md', '```sh\ncurl x\n')).to.throw('never closed');
  });

  it('holds an answer to the stated fields: objects field by field, arrays by some element, a string as text', () => {
    const body = JSON.stringify({ total: 4, data: [{ id: 1, status: 'waiting' }, { id: 2, status: 'fulfilled' }] });
    expect(containsStated(body, { total: 4 })).to.equal(true);
    expect(containsStated(body, { data: [{ status: 'fulfilled' }] })).to.equal(true);
    expect(containsStated(body, { total: 5 })).to.equal(false);
    expect(containsStated(body, { data: [{ status: 'cancelled' }] })).to.equal(false);
    expect(containsStated(body, { missing: null })).to.equal(false);
    expect(containsStated(body, { data: { status: 'waiting' } })).to.equal(false);
    expect(containsStated('BEGIN:VCALENDAR\r\nSUMMARY:Writing', 'SUMMARY:Writing')).to.equal(true);
    expect(containsStated('not json', { a: 1 })).to.equal(false);
  });

  it('finds shell commands written in blocks without a language, which would escape the test', () => {
    expect(untaggedCommandLines('```\nnpm run replay -- --after 0\n```\n```sh\nnpm test\n```\n```\nRateLimit: "per-sub"\n```')).to.deep.equal([2]);
    expect(untaggedCommandLines('```\nDB_HOST=127.0.0.1 npm run bench\n```')).to.deep.equal([2]);
  });
});
