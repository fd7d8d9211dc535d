const utf8 = new TextEncoder();

/**
 * RFC 5545 §3.1: content lines end in CRLF and none is longer than 75 octets; a longer one goes on
 * in lines that begin with one space, which counts towards their 75. Cuts fall between characters,
 * never inside a UTF-8 sequence. `text` is unfolded lines joined by CRLF (or LF).
 */
export function foldContentLines(text: string): string {
  const lines = text.split(/\r?\n/).filter((line) => line !== '');
  return lines.map(foldLine).join('');
}

function foldLine(line: string): string {
  // Most lines fit: at most 75 UTF-16 units of which none is multi-octet, or 25 of any.
  if (line.length <= 25 || (line.length <= 75 && /^[\x00-\x7f]*$/.test(line))) return `${line}\r\n`;
  let folded = '';
  let room = 75;
  let width = 0;
  for (const char of line) {
    const octets = utf8.encode(char).length;
    if (width + octets > room) {
      folded += '\r\n ';
      room = 74;
      width = 0;
    }
    folded += char;
    width += octets;
  }
  return `${folded}\r\n`;
}

/** The lines of folded text joined back (RFC 5545 §3.1 unfolding). */
export const unfoldContentLines = (text: string) => text.replace(/\r?\n[ \t]/g, '');
