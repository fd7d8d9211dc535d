import { LRUCache } from 'lru-cache';
import { trackCache } from '../metrics/cache-metrics.js';
import { twoGenerationMap } from './two-generation-map.js';

/**
 * The bound: entries, least recently used out first (`generations`: in two generations of
 * `maxEntries / 2`, for lookups by the thousand per request, see twoGenerationMap); or bytes as
 * `bytesOf` counts a value (the key's share included).
 */
export type CacheBound<K, V> = { maxEntries: number; generations?: boolean } | { maxBytes: number; bytesOf: (value: V, key: K) => number };

/**
 * An in-process cache whose lookups are counted in cache_hits_total and cache_misses_total and
 * whose size is reported in cache_entries (and cache_bytes), all labelled with its name.
 */
export type BoundedCache<K, V> = {
  /** The value kept for `key` (a hit), or undefined (a miss); `isCurrent` false: kept but stale, a miss. */
  get(key: K, isCurrent?: (value: V) => boolean): V | undefined;
  /** `ttlMs`: the entry expires after that long (a lookup after it is a miss); not with `generations`. */
  set(key: K, value: V, options?: { ttlMs?: number }): void;
  delete(key: K): void;
  /** The value kept for `key`, else `make`'s, kept. */
  remember(key: K, make: () => V): V;
  readonly size: number;
};

type Store<K, V> = {
  get(key: K): V | undefined;
  set(key: K, value: V, ttlMs?: number): void;
  delete(key: K): void;
  readonly size: number;
  readonly bytes: number;
};

function storeOf<K extends {}, V extends {}>(bound: CacheBound<K, V>, ttlMs: number | undefined): Store<K, V> {
  if ('maxEntries' in bound && bound.generations) {
    const noTtl = (ttl: number | undefined) => {
      if (ttl !== undefined) throw new Error('a cache in two generations keeps no ttl');
    };
    noTtl(ttlMs);
    const map = twoGenerationMap<K, V>(Math.max(1, Math.floor(bound.maxEntries / 2)));
    return {
      get: map.get,
      set: (key, value, ttl) => {
        noTtl(ttl);
        map.set(key, value);
      },
      delete: map.delete,
      bytes: 0,
      get size() {
        return map.size;
      },
    };
  }
  const lru = new LRUCache<K, V>({
    ...('maxEntries' in bound ? { max: bound.maxEntries } : { maxSize: bound.maxBytes, sizeCalculation: bound.bytesOf }),
    ...(ttlMs === undefined ? {} : { ttl: ttlMs }),
  });
  return {
    get: (key) => lru.get(key),
    set: (key, value, ttl) => lru.set(key, value, ttl === undefined ? undefined : { ttl }),
    delete: (key) => lru.delete(key),
    get size() {
      return lru.size;
    },
    get bytes() {
      return lru.calculatedSize;
    },
  };
}

/** A cache named `name` in the metrics, never holding more than `bound`; `ttlMs`: every entry expires after that long. */
export function boundedCache<K extends {}, V extends {}>(name: string, bound: CacheBound<K, V>, options: { ttlMs?: number } = {}): BoundedCache<K, V> {
  const store = storeOf(bound, options.ttlMs);
  const tally = trackCache(name, store, 'maxBytes' in bound);
  const cache: BoundedCache<K, V> = {
    get(key, isCurrent) {
      const value = store.get(key);
      if (value === undefined || (isCurrent && !isCurrent(value))) {
        tally.misses++;
        return undefined;
      }
      tally.hits++;
      return value;
    },
    set(key, value, { ttlMs } = {}) {
      store.set(key, value, ttlMs);
    },
    delete(key) {
      store.delete(key);
    },
    remember(key, make) {
      const kept = cache.get(key);
      if (kept !== undefined) return kept;
      const made = make();
      store.set(key, made);
      return made;
    },
    get size() {
      return store.size;
    },
  };
  return cache;
}
