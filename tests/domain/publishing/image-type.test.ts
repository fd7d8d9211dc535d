import { expect } from 'chai';
import { imageTypeOf } from '../../../src/domain/publishing/image-type.js';
import { publishImagesOf } from '../../../src/domain/publishing/publish-images.js';
import { DomainError } from '../../../src/domain/domain-error.js';

const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const jpeg = Buffer.from('ffd8ffe000104a464946', 'hex');
const webp = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x24, 0, 0, 0]), Buffer.from('WEBPVP8 ')]);
const gif = Buffer.from('GIF89a');
const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>');

describe('image types by content', () => {
  it('recognises PNG, JPEG and WebP by their magic bytes', () => {
    expect(imageTypeOf(png)).to.deep.equal({ extension: 'png', contentType: 'image/png' });
    expect(imageTypeOf(jpeg)).to.deep.equal({ extension: 'jpg', contentType: 'image/jpeg' });
    expect(imageTypeOf(webp)).to.deep.equal({ extension: 'webp', contentType: 'image/webp' });
  });

  it('knows nothing else: GIF, SVG (script-capable), a RIFF that is not WebP, empty bytes', () => {
    const riffWave = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVE')]);
    for (const bytes of [gif, svg, riffWave, Buffer.alloc(0), png.subarray(0, 7)]) expect(imageTypeOf(bytes)).to.equal(null);
  });

  it('names the icon and the screenshots in the order sent, refusing any non-image with 415', () => {
    const file = (bytes: Buffer) => ({ filename: 'x.png', bytes });
    const images = publishImagesOf(file(png), [file(jpeg), file(webp)]);
    expect(images.icon?.name).to.equal('icon');
    expect(images.screenshots.map((s) => `${s.name}.${s.type.extension}`)).to.deep.equal(['screenshot-1.jpg', 'screenshot-2.webp']);
    expect(publishImagesOf(null, []).icon).to.equal(null);
    expect(() => publishImagesOf(file(svg), [])).to.throw(DomainError, 'icon must be a PNG, JPEG or WebP image');
    try {
      publishImagesOf(null, [file(png), file(gif)]);
      expect.fail('expected a refusal');
    } catch (error) {
      expect((error as DomainError).code).to.equal('unsupported_media_type');
      expect((error as Error).message).to.equal('screenshots[1] must be a PNG, JPEG or WebP image');
    }
  });
});
