import { SaxesParser } from 'saxes';
import type { TestServer } from '../../support/test-server.js';

/** An element of an answer, as saxes reads it (namespaces resolved). */
export type Node = { ns: string; name: string; attributes: Record<string, string>; children: Node[]; text: string };

export function parseXml(text: string): Node {
  const parser = new SaxesParser({ xmlns: true });
  const stack: Node[] = [];
  let root: Node | undefined;
  parser.on('opentag', (tag) => {
    const node: Node = { ns: tag.uri, name: tag.local, attributes: Object.fromEntries(Object.values(tag.attributes).map((a) => [a.local, a.value])), children: [], text: '' };
    stack.at(-1)?.children.push(node);
    root ??= node;
    stack.push(node);
  });
  parser.on('text', (t) => {
    if (stack.at(-1)) stack.at(-1)!.text += t;
  });
  parser.on('closetag', () => stack.pop());
  parser.write(text).close();
  return root!;
}

export const D = 'DAV:';
export const C = 'urn:ietf:params:xml:ns:caldav';

export const child = (node: Node | undefined, ns: string, name: string) => node?.children.find((c) => c.ns === ns && c.name === name);
export const children = (node: Node | undefined, ns: string, name: string) => node?.children.filter((c) => c.ns === ns && c.name === name) ?? [];

/** One member of a multistatus: its href, its own status, and each property with the status of its propstat. */
export type Member = { href: string; status?: string; props: Map<string, { status: string; node: Node }> };

export function membersOf(multistatus: Node): Member[] {
  return children(multistatus, D, 'response').map((response) => {
    const props = new Map<string, { status: string; node: Node }>();
    for (const propstat of children(response, D, 'propstat')) {
      const status = child(propstat, D, 'status')!.text;
      for (const p of child(propstat, D, 'prop')?.children ?? []) props.set(`{${p.ns}}${p.name}`, { status, node: p });
    }
    return { href: decodeURIComponent(child(response, D, 'href')!.text), status: child(response, D, 'status')?.text, props };
  });
}

/** A property's value found (200): its element. */
export function prop(member: Member | undefined, ns: string, name: string): Node | undefined {
  const found = member?.props.get(`{${ns}}${name}`);
  return found && / 200 /.test(found.status) ? found.node : undefined;
}

export const hrefsIn = (node: Node | undefined) => children(node, D, 'href').map((h) => decodeURIComponent(h.text));

export type DavAnswer = { status: number; text: string; headers: Headers; members: Member[]; syncToken?: string; root?: Node };

/** One request under /dav/ as a CalDAV client sends it. */
export async function davRequest(
  server: Pick<TestServer, 'url' | 'token'>,
  method: string,
  path: string,
  { body, depth, token = server.token(), headers = {} }: { body?: string; depth?: string; token?: string | null; headers?: Record<string, string> } = {},
): Promise<DavAnswer> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    redirect: 'manual',
    headers: {
      ...(body !== undefined ? { 'content-type': 'application/xml; charset=utf-8' } : {}),
      ...(depth !== undefined ? { depth } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body,
  });
  const text = await response.text();
  if (!response.headers.get('content-type')?.startsWith('application/xml') || text === '') return { status: response.status, text, headers: response.headers, members: [] };
  const root = parseXml(text);
  return { status: response.status, text, headers: response.headers, members: root.name === 'multistatus' ? membersOf(root) : [], syncToken: child(root, D, 'sync-token')?.text, root };
}

export const propfindBody = (props: string) => `<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/" xmlns:wb="urn:workspace-booking"><d:prop>${props}</d:prop></d:propfind>`;

export const calendarQueryBody = (start?: string, end?: string) =>
  `<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/></d:prop><c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VEVENT">${
    start || end ? `<c:time-range${start ? ` start="${start}"` : ''}${end ? ` end="${end}"` : ''}/>` : ''
  }</c:comp-filter></c:comp-filter></c:filter></c:calendar-query>`;

export const syncBody = (token = '') => `<d:sync-collection xmlns:d="DAV:"><d:sync-token>${token}</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>`;
