import { createRequire } from 'node:module';
import { boundedCache } from '../infra/cache/bounded-cache.js';

type PathToRegexp = (path: string, options?: Record<string, unknown>) => { regexp: RegExp; keys: unknown[] };

/** The validator passes only these flags; the key is built without JSON.stringify, which cost as much as the lookup. */
const knownOptions = new Set(['sensitive', 'strict']);

/**
 * express-openapi-validator compiles a path-to-regexp matcher for every documented route on every
 * request (open upstream: cdimascio/express-openapi-validator#1217), which cost about a sixth of a
 * request's CPU. Compiling is a pure function of the route and the options, so the copy of
 * path-to-regexp the validator loads is given a memo in front of it. Idempotent.
 */
export function cacheOpenApiRouteMatchers(): void {
  const fromValidator = createRequire(createRequire(import.meta.url).resolve('express-openapi-validator'));
  const module = fromValidator('path-to-regexp') as { pathToRegexp: PathToRegexp & { memoized?: true } };
  if (module.pathToRegexp.memoized) return;
  const compile = module.pathToRegexp;
  // One entry per documented route and flags, a few hundred, each looked up on every request: plain Map lookups.
  const compiled = boundedCache<string, ReturnType<PathToRegexp>>('openapi-route-matchers', { maxEntries: 10_000, generations: true });
  const memoized = Object.assign(
    (path: string, options?: Record<string, unknown>) => {
      if (typeof path !== 'string' || Object.keys(options ?? {}).some((name) => !knownOptions.has(name))) return compile(path, options);
      const key = `${path}\u0000${options?.sensitive === true}|${options?.strict === true}`;
      return compiled.remember(key, () => compile(path, options));
    },
    { memoized: true as const },
  );
  module.pathToRegexp = memoized;
}
