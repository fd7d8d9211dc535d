/** An Idempotency-Key of one caller (workspace, sub) and the answer kept for it (contract §18). */
export type IdempotencyKeysTable = {
  /** The token's workspace; '' for an LV1 token that carries none. */
  workspace: string;
  sub: string;
  key: string;
  /** hex SHA-256 of the method, the URL and the canonical JSON body of the first request. */
  fingerprint: string;
  /** Drawn by each claim: only its holder completes or frees the row. */
  claim_id: string;
  state: 'in_flight' | 'done';
  status: number | null;
  content_type: string | null;
  body: string | null;
  /** An in-flight row may be taken over after this (its process died mid-request). */
  lease_until: Date;
  /** The kept answer counts until then; the cleanup deletes it afterwards. */
  expires_at: Date;
};
