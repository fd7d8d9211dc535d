/**
 * A map bounded by entry count with plain Map lookups: entries go to the young generation; when
 * it is full it becomes the old one (the old one is dropped), and an entry found in the old one
 * moves back. Holds at most twice `perGeneration` entries. For lookups by the thousand per
 * request, where lru-cache's bookkeeping per get cost more than the answer's other work.
 */
export function twoGenerationMap<K, V>(perGeneration: number) {
  let young = new Map<K, V>();
  let old = new Map<K, V>();
  const set = (key: K, value: V) => {
    if (young.size >= perGeneration) {
      old = young;
      young = new Map();
    }
    young.set(key, value);
  };
  return {
    get(key: K): V | undefined {
      const value = young.get(key);
      if (value !== undefined) return value;
      const aged = old.get(key);
      if (aged !== undefined) set(key, aged);
      return aged;
    },
    set,
    delete(key: K): void {
      young.delete(key);
      old.delete(key);
    },
    /** Entries held, a key in both generations counted twice. */
    get size(): number {
      return young.size + old.size;
    },
  };
}
