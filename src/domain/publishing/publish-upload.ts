/** A file of the form, held in memory (spec §8). */
export type UploadedFile = { filename: string; bytes: Buffer };

/** Everything an upload sent, within the stream's limits; judged by publishApp. */
export type PublishUpload = {
  fields: ReadonlyMap<string, string>;
  file: UploadedFile | null;
  icon: UploadedFile | null;
  screenshots: UploadedFile[];
};
