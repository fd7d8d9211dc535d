import type { RequestHandler } from 'express';

/** Set once the process is shutting down (SIGTERM): health answers 503 and connections close after their answer. */
export type Draining = {
  readonly active: boolean;
  start(): void;
};

export function createDraining(): Draining {
  let active = false;
  return {
    get active() {
      return active;
    },
    start: () => void (active = true),
  };
}

/**
 * While draining, every answer closes its connection after it: a keep-alive client (a load
 * balancer) opens its next request on a new connection, which reaches another node once this one
 * stops accepting, instead of finding a connection closed under it.
 */
export function closeConnectionsWhileDraining(draining: Draining): RequestHandler {
  return (_req, res, next) => {
    if (draining.active) res.setHeader('Connection', 'close');
    next();
  };
}
