import type { Selectable } from 'kysely';

/** A calendar password (contract §25): its username, whom it acts as, and its scrypt hash (never the password). */
export type CalendarPasswordsTable = {
  id: string;
  username: string;
  label: string;
  /** The creator's workspace; null for an LV1 token that carries none. */
  workspace: string | null;
  owner_sub: string;
  owner_level: number;
  owner_groups: string[];
  owner_email: string | null;
  /** PHC string: `$scrypt$ln=…,r=…,p=…$<salt>$<key>`, the parameters beside the hash (calendar-password-hash.ts). */
  password_hash: string;
  created_at: Date;
  expires_at: Date;
};

export type CalendarPasswordRow = Selectable<CalendarPasswordsTable>;
