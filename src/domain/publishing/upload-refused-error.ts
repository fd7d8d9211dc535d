/** An upload refused for its size (413) or its content type (415); answered with that status. */
export class UploadRefusedError extends Error {
  constructor(
    readonly status: 413 | 415,
    message: string,
  ) {
    super(message);
    this.name = 'UploadRefusedError';
  }
}

export const tooLarge = (message: string) => new UploadRefusedError(413, message);
export const unsupportedMediaType = (message: string) => new UploadRefusedError(415, message);
