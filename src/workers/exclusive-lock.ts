/** The right to be the one active instance of a worker. */
export type ExclusiveLock = {
  /** True while this instance holds the lock; takes it when it is free. */
  acquire(): Promise<boolean>;
  release(): Promise<void>;
};
