/** If-None-Match holds `tag` or `*` (weak comparison, RFC 9110 13.1.2). */
export const matchesTag = (header: string | undefined, tag: string) =>
  header !== undefined && header.split(',').some((listed) => ['*', tag].includes(listed.trim().replace(/^W\//, '')));
