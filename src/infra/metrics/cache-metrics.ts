import { Counter, Gauge } from 'prom-client';
import { processRegistry } from './process-metrics.js';

/** What the size gauges read of a live cache. */
type Sized = { readonly size: number; readonly bytes: number };

/**
 * The counts of every cache of one name, kept as plain numbers on the lookup path (a labelled
 * counter's inc hashes its labels, too dear for lookups by the thousand per request) and handed
 * to Prometheus when scraped. Caches made per set of services share their name's counts.
 */
export type CacheTally = { hits: number; misses: number };

type Tracked = CacheTally & { bytesBound: boolean; caches: Set<WeakRef<Sized>> };

/** One entry per cache name: bounded by the code. Caches are held weakly, so one made per set of services may go. */
const tallies = new Map<string, Tracked>();

/** Counts a cache under `name`; `bytesBound`: its bound is in bytes, reported as cache_bytes. */
export function trackCache(name: string, cache: Sized, bytesBound: boolean): CacheTally {
  let tally = tallies.get(name);
  if (!tally) tallies.set(name, (tally = { hits: 0, misses: 0, bytesBound, caches: new Set() }));
  tally.caches.add(new WeakRef(cache));
  return tally;
}

/** The live caches of a tally (dropping the references of those collected). */
function* liveCaches(tally: Tracked): Generator<Sized> {
  for (const ref of tally.caches) {
    const cache = ref.deref();
    if (cache) yield cache;
    else tally.caches.delete(ref);
  }
}

const total = (tally: Tracked, measure: (cache: Sized) => number) => [...liveCaches(tally)].reduce((sum, cache) => sum + measure(cache), 0);

new Counter({
  name: 'cache_hits_total',
  help: 'Lookups answered from an in-process cache, by cache',
  labelNames: ['cache'] as const,
  registers: [processRegistry],
  collect() {
    this.reset();
    for (const [cache, tally] of tallies) this.inc({ cache }, tally.hits);
  },
});

new Counter({
  name: 'cache_misses_total',
  help: 'Lookups an in-process cache could not answer (absent, expired or stale), by cache',
  labelNames: ['cache'] as const,
  registers: [processRegistry],
  collect() {
    this.reset();
    for (const [cache, tally] of tallies) this.inc({ cache }, tally.misses);
  },
});

new Gauge({
  name: 'cache_entries',
  help: 'Entries held by an in-process cache, by cache',
  labelNames: ['cache'] as const,
  registers: [processRegistry],
  collect() {
    this.reset();
    for (const [cache, tally] of tallies) this.set({ cache }, total(tally, (c) => c.size));
  },
});

new Gauge({
  name: 'cache_bytes',
  help: 'Bytes held by an in-process cache bounded in bytes, by cache',
  labelNames: ['cache'] as const,
  registers: [processRegistry],
  collect() {
    this.reset();
    for (const [cache, tally] of tallies) if (tally.bytesBound) this.set({ cache }, total(tally, (c) => c.bytes));
  },
});
