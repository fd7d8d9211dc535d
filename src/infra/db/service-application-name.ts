/**
 * The application_name of every pooled connection of the service and its scripts, the only
 * connections that append to the log. The log's horizon waits only for their transactions
 * (log-horizon.ts): a session of anyone else idle in transaction holds no follower back.
 */
export const serviceApplicationName = 'workspace-booking';
