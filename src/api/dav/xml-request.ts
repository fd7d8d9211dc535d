import type { Request } from 'express';
import { SaxesParser } from 'saxes';
import { invalidRequest, payloadTooLarge } from '../../domain/domain-error.js';

/** A parsed element of a request body: namespace, local name, attributes by local name, children, text. */
export type XmlElement = { ns: string; name: string; attributes: Record<string, string>; children: XmlElement[]; text: string };

/** Contract §25: a body over 1 MiB is refused while it streams in. */
export const maxDavBodyBytes = 2 ** 20;

/** Deeper than any CalDAV request nests (a calendar-query filter is about 6). */
export const maxXmlDepth = 64;

/**
 * The request's bytes, counted as they arrive: over `maxDavBodyBytes` (by Content-Length, or
 * once that many have come) → 413 before anything else reads them; the connection is then closed
 * rather than the rest read.
 */
export function readDavBody(req: Request): Promise<Buffer> {
  const declared = Number(req.get('content-length') ?? 0);
  if (declared > maxDavBodyBytes) return Promise.reject(payloadTooLarge(`a request body under /dav/ may hold at most ${maxDavBodyBytes} bytes`));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxDavBodyBytes) {
        chunks.push(chunk);
        return;
      }
      req.off('data', onData);
      req.pause();
      req.res?.set('Connection', 'close');
      reject(payloadTooLarge(`a request body under /dav/ may hold at most ${maxDavBodyBytes} bytes`));
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', () => reject(invalidRequest('the request body could not be read', '/body')));
  });
}

/**
 * An XML body as a tree, by saxes with namespaces: a DOCTYPE (and with it every entity but the
 * five predefined ones) is refused, so nothing is expanded or fetched; malformed XML and nesting
 * deeper than maxXmlDepth are 400. null for an empty body.
 */
export function parseXmlBody(body: Buffer): XmlElement | null {
  const text = body.toString('utf8');
  if (text.trim() === '') return null;
  const parser = new SaxesParser({ xmlns: true });
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  let failure: string | null = null;
  parser.on('error', (error) => {
    failure ??= error.message;
    throw error;
  });
  parser.on('doctype', () => {
    failure = 'a DOCTYPE is not accepted';
    throw new Error(failure);
  });
  parser.on('opentag', (tag) => {
    if (stack.length >= maxXmlDepth) {
      failure = `XML nested deeper than ${maxXmlDepth} elements`;
      throw new Error(failure);
    }
    const attributes: Record<string, string> = {};
    for (const attribute of Object.values(tag.attributes)) if (attribute.uri === '') attributes[attribute.local] = attribute.value;
    const node: XmlElement = { ns: tag.uri, name: tag.local, attributes, children: [], text: '' };
    stack.at(-1)?.children.push(node);
    root ??= node;
    stack.push(node);
  });
  parser.on('text', (chunk) => {
    const open = stack.at(-1);
    if (open) open.text += chunk;
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  try {
    parser.write(text).close();
  } catch (error) {
    throw invalidRequest(`malformed XML: ${failure ?? (error as Error).message}`, '/body');
  }
  if (!root) throw invalidRequest('malformed XML: no root element', '/body');
  return root;
}

/** The children of `parent` named `ns`:`name`. */
export const childrenNamed = (parent: XmlElement | undefined, ns: string, name: string) => parent?.children.filter((c) => c.ns === ns && c.name === name) ?? [];

export const childNamed = (parent: XmlElement | undefined, ns: string, name: string) => childrenNamed(parent, ns, name)[0];
