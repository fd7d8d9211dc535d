/**
 * A cache bounded by entry count with plain Map lookups: entries go to the young generation; when
 * it is full it becomes the old one (the old one is dropped), and an entry found in the old one
 * moves back. Holds at most twice `perGeneration` entries. Used where lookups come by the
 * thousand per request (lru-cache's bookkeeping per get cost more than the answer's other work).
 */
export function twoGenerationCache<V>(perGeneration: number): { get(key: string): V | undefined; set(key: string, value: V): void } {
  let young = new Map<string, V>();
  let old = new Map<string, V>();
  const set = (key: string, value: V) => {
    if (young.size >= perGeneration) {
      old = young;
      young = new Map();
    }
    young.set(key, value);
  };
  return {
    get(key) {
      const value = young.get(key);
      if (value !== undefined) return value;
      const aged = old.get(key);
      if (aged !== undefined) set(key, aged);
      return aged;
    },
    set,
  };
}
