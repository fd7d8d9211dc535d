import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { DocExample } from './doc-examples.js';

/** One HTTP call an example made: its status (0 when curl got no answer) and the body it printed. */
export type ExampleCall = { status: number; body: string };

export type ExampleRun = {
  code: number | null;
  stdout: string;
  stderr: string;
  calls: ExampleCall[];
  /** Each stated answer, in order: its text with the session's variables expanded, and the index in `calls` of the call made just before it (-1: none). */
  stated: { text: string; call: number }[];
};

/**
 * Bash around an example, as a reader's terminal would run it, with three additions: `set -euo
 * pipefail`, so that a failing step fails the example; `curl` logs each call's status and body to
 * the run's log (also from subshells and pipes) and prints the body as curl does; and the shell
 * variables a block sets are kept in `state` for the next block of the same file, as a reader's
 * session keeps them.
 */
const prelude = String.raw`
set -euo pipefail
declare -A __seen=()
for __n in $(compgen -v); do __seen[$__n]=$(declare -p "$__n" 2>/dev/null || true); done
if [ -f "$EXAMPLE_STATE" ]; then source "$EXAMPLE_STATE"; fi
__save() {
  local n d
  for n in $(compgen -v); do
    case $n in __*|BASH*|FUNCNAME|LINENO|RANDOM|SRANDOM|SECONDS|EPOCHSECONDS|EPOCHREALTIME|PIPESTATUS|_|GROUPS|HISTCMD|COMP*|DIRSTACK|PPID|UID|EUID|SHELLOPTS|OPTIND|OPTARG|OLDPWD|PWD|IFS) continue ;; esac
    d=$(declare -p "$n" 2>/dev/null) || continue
    if [[ -n ${'$'}{__seen[$n]+x} && ${'$'}{__seen[$n]} == "$d" ]]; then continue; fi
    printf '%s\n' "$d"
  done > "$EXAMPLE_STATE"
}
trap __save EXIT
curl() {
  local body status
  body=$(mktemp "$EXAMPLE_DIR/body.XXXXXX")
  status=$(command curl -o "$body" -w '%{http_code}' "$@") || { printf 'call\t000\t%s\n' "$body" >> "$EXAMPLE_LOG"; return 1; }
  printf 'call\t%s\t%s\n' "$status" "$body" >> "$EXAMPLE_LOG"
  cat "$body"
}
__stated() { printf 'stated\t%s\n' "$(cat)" >> "$EXAMPLE_LOG"; }
`;

/**
 * The example's code with each `# → …` line turned into a mark in the log, at that point of the
 * run, its text expanded by bash as a here-document is: `${DAY1}` in a stated answer is that day.
 */
function instrumented(example: DocExample): string {
  return example.code
    .split('\n')
    .map((text) => {
      const stated = /^\s*# → (.*)$/.exec(text);
      return stated ? `__stated <<__STATED__\n${stated[1]}\n__STATED__` : text;
    })
    .join('\n');
}

/** Runs one example with bash from the repository root; `dir` holds the session's state and the bodies. */
export async function runDocExample(example: DocExample, env: Record<string, string>, dir: string, index: number, timeoutMs = 60_000): Promise<ExampleRun> {
  const log = path.join(dir, `log.${index}`);
  const child = spawn('bash', ['-c', `${prelude}\n${instrumented(example)}\n`], {
    env: { ...env, EXAMPLE_STATE: path.join(dir, 'state'), EXAMPLE_DIR: dir, EXAMPLE_LOG: log },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  }).finally(() => clearTimeout(timer));
  const entries = (await readFile(log, 'utf8').catch(() => '')).split('\n').filter(Boolean);
  const calls: ExampleCall[] = [];
  const stated: ExampleRun['stated'] = [];
  for (const entry of entries) {
    const [kind, value, bodyFile] = entry.split('\t');
    if (kind === 'stated') stated.push({ text: value!, call: calls.length - 1 });
    else calls.push({ status: Number(value), body: withoutHeaders(await readFile(bodyFile!, 'utf8')) });
  }
  return { code, stdout, stderr, calls, stated };
}

/** The body alone, when curl was asked for the headers too (`-i`). */
function withoutHeaders(output: string): string {
  if (!output.startsWith('HTTP/')) return output;
  const end = output.search(/\r?\n\r?\n/);
  return end < 0 ? '' : output.slice(end).trimStart();
}
