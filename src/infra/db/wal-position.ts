/** A PostgreSQL WAL position as printed by `pg_current_wal_lsn()` ("16/B374D848"), as bytes. */
export function walPosition(text: string): bigint | undefined {
  const match = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i.exec(text);
  if (!match) return undefined;
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}
