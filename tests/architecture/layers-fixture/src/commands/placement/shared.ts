/** What the placing features share. */
export type Shared = string;
