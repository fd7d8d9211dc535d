import { createHash } from 'node:crypto';

/** An event id derived from `key`: a second append of the same key is refused by the store. */
export function derivedEventId(key: string): string {
  const hex = createHash('sha1').update(key).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export const isDuplicateEventId = (error: unknown) => {
  const e = error as { code?: string; constraint?: string };
  return e.code === '23505' && e.constraint === 'events_event_id_key';
};
