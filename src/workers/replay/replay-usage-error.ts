/** A replay asked for something it cannot do (a target without its configuration, a position the log does not have): exit 2. */
export class ReplayUsageError extends Error {}
