/** The bucket of app images: object storage in production, a local folder by default. */
export type AssetStorage = {
  /** Stores the bytes under a new key and answers the URL recorded on the application. */
  put(key: string, bytes: Buffer, contentType: string): Promise<string>;
  /** Removes an asset again; one that is gone already is no error. */
  remove(key: string): Promise<void>;
};
