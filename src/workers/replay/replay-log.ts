import type { Writable } from 'node:stream';
import cliProgress from 'cli-progress';
import { toEventEnvelope } from '../../domain/event-envelope.js';
import type { LogReader } from '../../infra/event-store/log-reader.js';
import { publishedEventNames } from '../../infra/event-store/published-event-condition.js';
import { openReplayTarget, type ReplayTargetName, type SendEnvelopes } from './replay-targets.js';
import { ReplayUsageError } from './replay-usage-error.js';

export type ReplayRequest = { after: number; to: ReplayTargetName };

/** Where a replay's configuration comes from and where it writes: envelopes on stdout (target stdout), everything else on stderr. */
export type ReplayIo = { env: NodeJS.ProcessEnv; stdout: Writable; stderr: Writable };

const pageSize = 2_000;

/** How long to let an older transaction commit when the log holds back its later events (PostgreSQL's late-commit horizon). */
const horizonWaitMs = 100;

/**
 * Sends the published events after `after` up to the event at `head`, page by page in log order;
 * answers how many. The next page is read while the target takes this one: at most two pages are
 * held at once.
 */
async function sendRange(log: LogReader, after: number, head: number, send: SendEnvelopes, progress: cliProgress.SingleBar): Promise<number> {
  const read = (from: number) => {
    const page = log.readPublished({ after: from, maxCount: pageSize, names: publishedEventNames, upTo: head }).then((read) => {
      if (!read) throw new ReplayUsageError(`--after ${after} is no position of the log: take the "position" of an event (0 replays the whole log)`);
      return read;
    });
    // Awaited later: a failure while the previous page is sent must not count as unhandled meanwhile.
    page.catch(() => undefined);
    return page;
  };
  let from = after;
  let sent = 0;
  let reading = read(from);
  while (from !== head) {
    const page = await reading;
    const stalled = page.next === from;
    if (!stalled && page.next !== head) reading = read(page.next);
    const envelopes = page.events.flatMap((event) => toEventEnvelope(event) ?? []);
    await send(envelopes);
    sent += envelopes.length;
    if (stalled) {
      await new Promise((resolve) => setTimeout(resolve, horizonWaitMs));
      reading = read(from);
    }
    from = page.next;
    // A position names an event; on PostgreSQL the log's order is the commits', which positions follow only roughly.
    progress.update(Math.min(Math.max(from - after, 0), head - after), { sent });
  }
  return sent;
}

/**
 * Sends the published events after a log position again, with their original ids (consumers
 * de-duplicate on them), in log order: a resource's events keep their order on every target. The
 * range ends at the head of the log when the replay starts. Reads the log through `log`, from the
 * store that keeps it.
 */
export async function replayLog(log: LogReader, { after, to }: ReplayRequest, io: ReplayIo): Promise<void> {
  const head = await log.readHeadPosition();
  if (after >= head) {
    io.stderr.write(`replay: nothing to replay: position ${after} is at or beyond the head of the log (${head})\n`);
    return;
  }
  const target = await openReplayTarget(to, io.env, io.stdout);
  // At once, not at the bar's first tick (2 s on): a line at least every 5 s from the start (contract §20).
  io.stderr.write(`replay: positions ${after + 1}..${head} to ${to}\n`);
  const progress = new cliProgress.SingleBar(
    { stream: io.stderr, format: 'replay [{bar}] {percentage}% | positions {value}/{total} | {sent} events sent', noTTYOutput: true, notTTYSchedule: 2000 },
    cliProgress.Presets.shades_classic,
  );
  progress.start(head - after, 0, { sent: 0 });
  try {
    const sent = await sendRange(log, after, head, target.send, progress);
    progress.stop();
    io.stderr.write(`replay: sent ${sent} events of positions ${after + 1}..${head} to ${to}\n`);
  } finally {
    progress.stop();
    await target.close();
  }
}
