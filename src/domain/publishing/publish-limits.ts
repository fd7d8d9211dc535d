const MiB = 1024 * 1024;

/** The bounds of one upload (spec §8 and the contract); everything past them is refused, never truncated. */
export const publishLimits = {
  packageBytes: 10 * MiB,
  imageBytes: 2 * MiB,
  screenshots: 10,
  /** The package, an icon and every screenshot at their limits fit; anything larger is not a valid upload. */
  requestBytes: 40 * MiB,
  fieldBytes: 16 * 1024,
  fields: 20,
  parts: 40,
  zipEntries: 10_000,
  zipUncompressedBytes: 200 * MiB,
} as const;
