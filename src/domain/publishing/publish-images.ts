import { unsupportedMediaType } from '../domain-error.js';
import { imageTypeOf, type ImageType } from './image-type.js';
import type { UploadedFile } from './publish-upload.js';

/** An image to put in the bucket under `name`.<extension>. */
export type PublishImage = { name: string; type: ImageType; bytes: Buffer };

function imageOf(label: string, name: string, file: UploadedFile): PublishImage {
  const type = imageTypeOf(file.bytes);
  if (!type) throw unsupportedMediaType(`${label} must be a PNG, JPEG or WebP image`);
  return { name, type, bytes: file.bytes };
}

/** The icon, then the screenshots in the order sent; any file that is not a PNG, JPEG or WebP by content is refused (415). */
export function publishImagesOf(icon: UploadedFile | null, screenshots: UploadedFile[]): { icon: PublishImage | null; screenshots: PublishImage[] } {
  return {
    icon: icon && imageOf('icon', 'icon', icon),
    screenshots: screenshots.map((file, i) => imageOf(`screenshots[${i}]`, `screenshot-${i + 1}`, file)),
  };
}
