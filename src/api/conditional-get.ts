import type { Request, Response } from 'express';

/** A conditional GET's answer (RFC 9110 §13.1.2): its entity tag, and its body unless the client holds that tag already. */
export type TaggedAnswer = { tag: string } & ({ notModified: true } | { notModified: false; body: Buffer });

/** If-None-Match holds `tag` or `*` (weak comparison). */
const matchesTag = (header: string | undefined, tag: string) =>
  header !== undefined && header.split(',').some((listed) => ['*', tag].includes(listed.trim().replace(/^W\//, '')));

/** Whether the client of `req` holds a tag already (its If-None-Match). */
export function clientHoldsOf(req: Request): (tag: string) => boolean {
  const ifNoneMatch = req.get('if-none-match');
  return (tag) => matchesTag(ifNoneMatch, tag);
}

/** Sends a tagged answer: the ETag always; 304 without a body when the client holds it, else the body with `bodyHeaders`. */
export function sendTagged(res: Response, answer: TaggedAnswer, bodyHeaders: Record<string, string> = {}): void {
  res.set('ETag', answer.tag);
  if (answer.notModified) {
    res.status(304).end();
    return;
  }
  res.set(bodyHeaders).send(answer.body);
}
