/** A feature's own command. */
export type Book = string;
