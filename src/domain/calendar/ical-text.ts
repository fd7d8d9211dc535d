import ICAL from 'ical.js';

/** PRODID of what the service writes with ical.js. */
export const productId = '-//workspace-booking//CalDAV//EN';

/**
 * A component as RFC 5545 text: CRLF after every line, folded so that no line is longer than 75
 * octets. ical.js folds a line into 75 octets plus the continuation's leading space (76): it is
 * asked for 74 while it writes, and given back its setting at once (synchronous, so nothing else
 * writes in between).
 */
export function icalText(component: ICAL.Component): string {
  const folding = ICAL.foldLength;
  ICAL.foldLength = 74;
  try {
    return `${component.toString()}\r\n`;
  } finally {
    ICAL.foldLength = folding;
  }
}
