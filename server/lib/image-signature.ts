/**
 * Image types told by content, not by name: the upload store and the data-URI images of branding,
 * banners and guide entries check the same leading bytes, so a renamed text file is never an image.
 */
import { AVATAR_EXTENSIONS, UPLOAD_MAX_BYTES } from '../contract/validation.ts';
import { ErrorCode } from '../contract/errors.ts';
import { AppError } from './app-error.ts';
import { uploadTooLarge } from './upload.ts';

export type ImageExtension = (typeof AVATAR_EXTENSIONS)[number];

/** Leading bytes each format must start with. */
const signatures: Record<ImageExtension, Buffer[]> = {
  png: [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
  jpg: [Buffer.from([0xff, 0xd8, 0xff])],
  jpeg: [Buffer.from([0xff, 0xd8, 0xff])],
  gif: [Buffer.from('GIF87a', 'latin1'), Buffer.from('GIF89a', 'latin1')],
};

export function isImageExtension(ext: string): ext is ImageExtension {
  return (AVATAR_EXTENSIONS as readonly string[]).includes(ext);
}

export function contentIs(ext: ImageExtension, content: Buffer): boolean {
  return signatures[ext].some((sig) => content.subarray(0, sig.length).equals(sig));
}

export function badImageType(): AppError {
  return new AppError(ErrorCode.BAD_REQUEST_PARAMS, 'error.upload.badType', { types: AVATAR_EXTENSIONS.join(', ') });
}

const dataUri = /^data:image\/(png|jpeg|gif);base64,/;

/**
 * Checks a data-URI image by what it decodes to: the type it claims must be its content and it may
 * not exceed the upload limit. A store file reference (the other form the contract allows) passes:
 * the upload checked it.
 */
export function checkImageRef(ref: string): void {
  const match = dataUri.exec(ref);
  if (!match) return;
  const content = Buffer.from(ref.slice(match[0].length), 'base64');
  if (content.length > UPLOAD_MAX_BYTES) throw uploadTooLarge();
  if (!contentIs(match[1] as ImageExtension, content)) throw badImageType();
}
