/**
 * How a branding, banner or guide image is named in a body: a file of the upload store (its
 * `fileStaticUri`, already checked by content and size when uploaded) or a base64 data URI, which the
 * server decodes and checks by content and size itself (server/lib/image-signature.ts).
 */
import Type from 'typebox';
import { UPLOAD_MAX_BYTES } from './validation.ts';

export const IMAGE_REF_PATTERN = '^(/api/yt/oss/files/[a-f0-9]{64}\\.(png|jpg|jpeg|gif)|data:image/(png|jpeg|gif);base64,[A-Za-z0-9+/]+={0,2})$';

/** A data URI of the largest image an upload accepts: base64 takes 4 characters per 3 bytes. */
export const IMAGE_REF_MAX = Math.ceil(UPLOAD_MAX_BYTES / 3) * 4 + 32;

export const ImageRefSchema = Type.String({ minLength: 1, maxLength: IMAGE_REF_MAX, pattern: IMAGE_REF_PATTERN });
