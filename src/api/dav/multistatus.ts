import type { Response } from 'express';
import { dav, prefixes } from './xml-names.js';

/** An element of an answer: text children are escaped when written. */
export type XmlNode = { ns: string; name: string; attributes?: Record<string, string>; children?: readonly (XmlNode | string)[] };

export const element = (ns: string, name: string, children: readonly (XmlNode | string)[] = [], attributes?: Record<string, string>): XmlNode => ({ ns, name, children, attributes });

const references: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;', '\r': '&#13;' };

/**
 * Text as XML character data or an attribute value: the five markup characters as references, and
 * CR too, so that iCalendar's CRLF survives XML's line-end normalisation in calendar-data.
 */
export function xmlEscape(text: string): string {
  return text.replace(/[&<>"'\r]/g, (c) => references[c]!);
}

/** Characters XML 1.0 cannot carry at all (controls other than tab and line ends, lone surrogates): left out. */
const unwritable = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** What writtenText replaces, in one pass: the unwritable characters (by nothing) and the escaped ones. */
const rewritten = new RegExp(`${unwritable.source}|[&<>"'\\r]`, 'g');

/** Text as written into a document: the unwritable characters left out, the rest escaped (xmlEscape), in one pass over it. */
const writtenText = (text: string) => text.replace(rewritten, (c) => references[c] ?? '');

function write(node: XmlNode, out: string[]): void {
  const prefix = prefixes.get(node.ns);
  const tag = prefix ? `${prefix}:${node.name}` : node.name;
  // A namespace without a prefix of ours (a property a client asked for) is declared on its element.
  const ownNamespace = prefix ? '' : ` xmlns="${xmlEscape(node.ns)}"`;
  const attributes = node.attributes ? Object.entries(node.attributes).map(([name, value]) => ` ${name}="${writtenText(value)}"`).join('') : '';
  const children = node.children ?? [];
  if (children.length === 0) {
    out.push(`<${tag}${ownNamespace}${attributes}/>`);
    return;
  }
  out.push(`<${tag}${ownNamespace}${attributes}>`);
  for (const child of children) {
    if (typeof child === 'string') out.push(writtenText(child));
    else write(child, out);
  }
  out.push(`</${tag}>`);
}

/** A whole document, every prefix of ours declared on its root. */
export function xmlDocument(root: XmlNode): string {
  const out: string[] = [];
  write(root, out);
  const declarations = [...prefixes].map(([ns, prefix]) => ` xmlns:${prefix}="${xmlEscape(ns)}"`).join('');
  const first = out[0]!;
  out[0] = first.replace(/^(<[^\s/>]+)/, `$1${declarations}`);
  return `<?xml version="1.0" encoding="utf-8"?>\n${out.join('')}`;
}

/** One propstat: the properties found (200), or those asked for that this resource lacks (404). */
export type PropStat = { status: 200 | 403 | 404; props: readonly XmlNode[] };

/** A member of a multistatus (`href` as written in URLs, its segments percent-encoded): its properties, or just a status (a removed object, a missing href). */
export type DavResponse = { href: string; propstats: readonly PropStat[] } | { href: string; status: number };

const statusLine = (status: number) => `HTTP/1.1 ${status} ${({ 200: 'OK', 403: 'Forbidden', 404: 'Not Found', 507: 'Insufficient Storage' } as Record<number, string>)[status] ?? ''}`.trimEnd();

function responseNode(response: DavResponse): XmlNode {
  const href = element(dav, 'href', [response.href]);
  if ('status' in response) return element(dav, 'response', [href, element(dav, 'status', [statusLine(response.status)])]);
  const propstats = response.propstats
    .filter((p) => p.props.length > 0)
    .map((p) => element(dav, 'propstat', [element(dav, 'prop', p.props), element(dav, 'status', [statusLine(p.status)])]));
  return element(dav, 'response', [href, ...propstats]);
}

/** A multistatus (RFC 4918 §13), with a sync-collection's new token (RFC 6578 §6.4) when given. */
export function multistatusText(responses: readonly DavResponse[], syncToken?: string): string {
  const children = responses.map(responseNode);
  if (syncToken !== undefined) children.push(element(dav, 'sync-token', [syncToken]));
  return xmlDocument(element(dav, 'multistatus', children));
}

export const xmlContentType = 'application/xml; charset=utf-8';

export function sendMultistatus(res: Response, responses: readonly DavResponse[], syncToken?: string): void {
  res.status(207).set('Content-Type', xmlContentType).send(multistatusText(responses, syncToken));
}
