import type { ExclusiveLock } from './exclusive-lock.js';

// The names held per scope: lock state, not a cache; the scope (the embedded database) bounds its life.
const holders = new WeakMap<object, Set<string>>();

/** Mutual exclusion among the workers of this process that share `scope` (the embedded database). */
export function createInProcessLock(scope: object, name: string): ExclusiveLock {
  let held = false;
  return {
    async acquire() {
      if (held) return true;
      const names = holders.get(scope) ?? new Set<string>();
      holders.set(scope, names);
      if (names.has(name)) return false;
      names.add(name);
      held = true;
      return true;
    },
    async release() {
      if (held) holders.get(scope)?.delete(name);
      held = false;
    },
  };
}
