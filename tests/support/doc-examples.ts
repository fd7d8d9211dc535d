/**
 * The shell examples of README.md and docs/*.md, as docs/examples.md describes them: every ```sh
 * (or bash, shell) block is run unless the line before it says `<!-- not run: reason -->`, and each
 * `# → <status> [JSON]` line in it states the answer of the HTTP call made just before it.
 */
export type StatedAnswer = {
  /** 1-based line in the Markdown file. */
  line: number;
  status: number;
  /** What the body must contain (see `containsStated`); undefined: the status alone. */
  body?: unknown;
};

export type DocExample = {
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  code: string;
  /** The reason it is not run, from `<!-- not run: … -->`; undefined for an example that runs. */
  notRun?: string;
  answers: StatedAnswer[];
};

const fence = /^(\s*)```(sh|bash|shell)\s*$/;
const notRunMark = /^\s*<!--\s*not run:\s*(.*?)\s*-->\s*$/;
const statedMark = /^\s*# → (.*)$/;

/** The shell blocks of one Markdown text, in order; a stated body that is not JSON throws, naming its line. */
export function extractExamples(file: string, markdown: string): DocExample[] {
  const lines = markdown.split('\n');
  const examples: DocExample[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = fence.exec(lines[i]!);
    if (!open) continue;
    const indent = open[1]!.length;
    const close = lines.findIndex((text, j) => j > i && /^\s*```\s*$/.test(text));
    if (close < 0) throw new Error(`${file}:${i + 1}: a shell block that is never closed`);
    const body = lines.slice(i + 1, close).map((text) => text.slice(Math.min(indent, text.length - text.trimStart().length)));
    const before = lines.slice(0, i).reverse().find((text) => text.trim() !== '');
    const answers = body.flatMap((text, k) => {
      const stated = statedMark.exec(text);
      return stated ? [statedAnswer(file, i + 2 + k, stated[1]!)] : [];
    });
    examples.push({ file, line: i + 1, code: body.join('\n'), notRun: before === undefined ? undefined : notRunMark.exec(before)?.[1], answers });
    i = close;
  }
  return examples;
}

/** `<status> [JSON]`, the text of a `# → ` line (as written, or as the run expanded it). */
export function statedAnswer(file: string, line: number, text: string): StatedAnswer {
  const parts = /^(\d{3})(?:\s+(.+?))?\s*$/.exec(text);
  if (!parts) throw new Error(`${file}:${line}: a stated answer is a status, then maybe JSON: ${text}`);
  if (parts[2] === undefined) return { line, status: Number(parts[1]) };
  try {
    return { line, status: Number(parts[1]), body: JSON.parse(parts[2]) };
  } catch {
    throw new Error(`${file}:${line}: the stated answer's body is not JSON: ${parts[2]}`);
  }
}

/**
 * Whether an answer's body holds what the text states: a JSON string is a text the body contains;
 * otherwise the body is JSON, and every stated field is in it with a value holding the stated one
 * (objects: field by field; arrays: each stated element held by some element of the answer's).
 */
export function containsStated(body: string, stated: unknown): boolean {
  if (typeof stated === 'string') return body.includes(stated);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return false;
  }
  return holds(parsed, stated);
}

function holds(actual: unknown, stated: unknown): boolean {
  if (Array.isArray(stated)) return Array.isArray(actual) && stated.every((item) => actual.some((candidate) => holds(candidate, item)));
  if (stated !== null && typeof stated === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return false;
    return Object.entries(stated).every(([key, value]) => key in actual && holds((actual as Record<string, unknown>)[key], value));
  }
  return Object.is(actual, stated);
}

/** Lines of untagged blocks that look like shell commands: written so, they would escape the test (1-based lines). */
export function untaggedCommandLines(markdown: string): number[] {
  const lines = markdown.split('\n');
  const found: number[] = [];
  let inside: string | null = null;
  lines.forEach((text, i) => {
    const open = /^\s*```(\S*)\s*$/.exec(text);
    if (open) {
      inside = inside === null ? open[1]! : null;
      return;
    }
    if (inside === '' && /^\s*(curl|npm|npx|node|docker|bash)\s|^\s*[A-Z_]+=\S*\s+(npm|npx|node)\s/.test(text)) found.push(i + 1);
  });
  return found;
}
