/** The caller of the publishing routes, as its publisher token says. */
export type PublisherPrincipal = { publisherId: number; email: string };
