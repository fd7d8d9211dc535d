import { createHash } from 'node:crypto';

/** The strong entity tag of a calendar object's text (contract §25), quoted: a digest, so it changes exactly when the text does. */
export const calendarTextEtag = (text: string): string => `"${createHash('sha256').update(text).digest('base64url')}"`;
