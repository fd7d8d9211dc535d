import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { batchCalls } from '../batch-calls.js';
import type { DatabaseConfig } from '../config.js';
import type { Logger } from '../logger.js';
import { createReplicaDatabase, waitUntilIdle, type Database } from './database.js';
import { walPosition } from './wal-position.js';

export type ReadTarget = 'replica' | 'primary';

/** Where reads go (contract §19): a streaming replica when it is fresh enough, else the primary. */
export type ReadRouting = {
  /**
   * The database a read uses. With `token` (a write's Consistency-Token, as bytes of WAL): the
   * replica once it has replayed that write, waiting at most `tokenWaitMs`, else the primary.
   * Without: the replica while it lags by at most the configured bound.
   */
  readerFor(token: bigint | undefined): Promise<{ db: Database; target: ReadTarget }>;
  /** The replica as reads see it now (undefined without one): `up`, `behind` its lag bound, or `down`. */
  replicaStatus(): ReplicaStatus | undefined;
  /** A token naming every write committed before this call: the primary's WAL position after it. */
  consistencyToken(): Promise<string>;
  /**
   * The newest position this process has seen, without asking: the token of an answer that wrote
   * nothing (a refusal), which has no write of its own to name. "0/0" before any.
   */
  knownToken(): string;
  close(): Promise<void>;
};

export type ReplicaStatus = { status: 'up' | 'behind' | 'down'; lagMs?: number };

export type ReadRoutingOptions = { tokenWaitMs?: number; pollMs?: number };

type PrimarySample = { at: number; position: bigint };

const currentPosition = async (db: Database) =>
  (await sql<{ position: string }>`select pg_current_wal_lsn()::text as position`.execute(db)).rows[0]!.position;

/** Reads of the primary itself: no replica configured, or the embedded engine. */
function primaryOnly(primary: Database): ReadRouting {
  let known = '0/0';
  // A position read after the call covers the call's writes: calls made while one read runs wait
  // for the next, so under load one statement serves many answers.
  const position = batchCalls(async (calls: unknown[]) => {
    const current = await currentPosition(primary);
    known = current;
    return calls.map(() => current);
  });
  return {
    readerFor: async () => ({ db: primary, target: 'primary' }),
    replicaStatus: () => undefined,
    consistencyToken: () => position(undefined),
    knownToken: () => known,
    close: async () => undefined,
  };
}

/**
 * Follows the replica every `pollMs`: the primary's WAL position and the replica's replay
 * position. The replica holds every write the primary had committed at a sample's time once its
 * replay position reached the sample's; its staleness is the age of the newest such sample.
 */
export function createReadRouting(primary: Database, config: DatabaseConfig, logger: Logger, options: ReadRoutingOptions = {}): ReadRouting {
  if (config.kind !== 'postgres' || !config.replica) return primaryOnly(primary);
  const { tokenWaitMs = 2_000, pollMs = 100 } = options;
  const { maxLagMs } = config.replica;
  const where = `${config.replica.host}:${config.replica.port}`;
  const primaryReads = primaryOnly(primary);

  let replayed: bigint | undefined;
  let samples: PrimarySample[] = [];
  // The replica counts as reachable while a replay position asked after the last failure came back
  // within `answerWithinMs`: a poll stuck on a silent connection cannot keep it "up", and an answer
  // sent before a failure cannot undo it.
  const answerWithinMs = 1_000;
  let answeredAt: number | undefined;
  let failures = 0;
  const isReachable = () => answeredAt !== undefined && Date.now() - answeredAt <= answerWithinMs + 2 * pollMs;
  const markUnreachable = (error: unknown) => {
    if (answeredAt !== undefined) logger.warn({ err: error, replica: where }, 'read replica unreachable: reads go to the primary');
    answeredAt = undefined;
    failures += 1;
  };
  const replica = createReplicaDatabase({ ...config, replica: config.replica }, primary, markUnreachable);

  // A replica cut off without a refusal would hold the query until TCP gives up: a second is the most it gets.
  const replayPosition = batchCalls(async (calls: unknown[]) => {
    const failuresBefore = failures;
    const { rows } = await Promise.race([
      sql<{ position: string | null }>`select pg_last_wal_replay_lsn()::text as position`.execute(replica),
      sleep(answerWithinMs, undefined, { ref: false }).then(() => Promise.reject(new Error(`${where} did not answer within a second`))),
    ]);
    const position = rows[0]?.position ? walPosition(rows[0].position) : undefined;
    if (position === undefined) throw new Error(`${where} is not a streaming replica (pg_last_wal_replay_lsn() is null)`);
    if (replayed === undefined || position > replayed) replayed = position;
    if (failures === failuresBefore) {
      if (!isReachable()) logger.info({ replica: where }, 'read replica reachable: reads go to it while it keeps up');
      answeredAt = Date.now();
    }
    return calls.map(() => position);
  });

  const staleness = (now: number): number => {
    if (!isReachable() || replayed === undefined) return Infinity;
    for (let i = samples.length - 1; i >= 0; i--) if (samples[i]!.position <= replayed) return now - samples[i]!.at;
    return Infinity;
  };

  let stopped = false;
  const follow = async () => {
    while (!stopped) {
      const at = Date.now();
      const [sampled] = await Promise.allSettled([currentPosition(primary), replayPosition(undefined).catch(markUnreachable)]);
      if (sampled.status === 'fulfilled') {
        samples.push({ at, position: walPosition(sampled.value)! });
        samples = samples.filter((s) => s.at >= at - maxLagMs - 10 * pollMs);
      }
      await sleep(pollMs, undefined, { ref: false });
    }
  };
  const following = follow();

  const replicaHolds = async (token: bigint): Promise<boolean> => {
    const deadline = Date.now() + tokenWaitMs;
    while (isReachable()) {
      if (replayed !== undefined && replayed >= token) return true;
      if (Date.now() >= deadline) return false;
      await sleep(Math.min(5, pollMs));
      await replayPosition(undefined).catch(markUnreachable);
    }
    return false;
  };

  return {
    async readerFor(token) {
      const fresh = token === undefined ? staleness(Date.now()) <= maxLagMs : await replicaHolds(token);
      return fresh ? { db: replica, target: 'replica' } : { db: primary, target: 'primary' };
    },
    replicaStatus() {
      if (!isReachable()) return { status: 'down' };
      const lagMs = staleness(Date.now());
      return Number.isFinite(lagMs) ? { status: lagMs <= maxLagMs ? 'up' : 'behind', lagMs: Math.round(lagMs) } : { status: 'behind' };
    },
    consistencyToken: primaryReads.consistencyToken,
    knownToken: primaryReads.knownToken,
    async close() {
      stopped = true;
      await following;
      await waitUntilIdle(replica);
      await replica.destroy();
    },
  };
}
