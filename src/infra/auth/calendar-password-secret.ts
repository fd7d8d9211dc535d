import { randomBytes } from 'node:crypto';

/** Recognisable in logs and secret scanners, as feed tokens' `wbcal_` is. */
export const calendarPasswordPrefix = 'wbdav_';

/** The prefix and 24 random bytes (192 bits) in base64url: 38 characters a client stores, never types twice. */
export const newCalendarPasswordSecret = (): string => `${calendarPasswordPrefix}${randomBytes(24).toString('base64url')}`;

const base32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** 12 lowercase base32 characters (60 random bits): what makes a calendar password's username unique. */
export function newUsernameSuffix(): string {
  return [...randomBytes(12)].map((byte) => base32[byte & 31]).join('');
}

const secretPattern = /^wbdav_[A-Za-z0-9_-]{32}$/;

/** Whether `text` has the shape of a calendar password: anything else is wrong without running scrypt. */
export const couldBeCalendarPassword = (text: string): boolean => secretPattern.test(text);
