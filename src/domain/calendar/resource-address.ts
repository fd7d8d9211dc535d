/** The calendar user addresses of a resource principal (contract §25): `mailto:{registrationId}@{domain}` and `urn:uuid:{registrationId}`. */
export function resourceAddresses(registrationId: string, domain: string): [mail: string, urn: string] {
  return [`mailto:${registrationId}@${domain}`, `urn:uuid:${registrationId}`];
}

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The registration id an address names, when it is one of the forms resourceAddresses writes
 * (scheme and domain in any case, as RFC 3986 and RFC 5321 compare them), else null.
 */
export function registrationIdOfAddress(address: string, domain: string): string | null {
  const text = address.trim();
  const urn = /^urn:uuid:(.+)$/i.exec(text);
  const mail = /^mailto:([^@]+)@(.+)$/i.exec(text);
  const id = urn ? urn[1]! : mail && mail[2]!.toLowerCase() === domain.toLowerCase() ? mail[1]! : null;
  return id !== null && uuid.test(id) ? id.toLowerCase() : null;
}
