/** What an event kind contributes to its envelope; the stored event adds id and position. */
export type PublishedBody = {
  event: string;
  timestamp: string;
  workspace: string;
  data: Record<string, unknown>;
};
