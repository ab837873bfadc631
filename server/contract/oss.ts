/** File uploads (images for avatar, logo, product pictures) stored by content hash in the data dir. */
import Type, { type Static } from 'typebox';
import { defineRoutes } from './route.ts';
import { ErrorBodySchema } from './errors.ts';
import { OkSchema } from './common.ts';

export const UploadResultSchema = Type.Object({ fileStaticUri: Type.String() });
export type UploadResult = Static<typeof UploadResultSchema>;

/** Stored name: sha256 hex of the content plus the checked extension. */
export const OSS_FILE_NAME_PATTERN = '^[a-f0-9]{64}\\.(png|jpg|jpeg|gif)$';

export const OssFileParamsSchema = Type.Object({
  name: Type.String({ pattern: OSS_FILE_NAME_PATTERN }),
});

/**
 * Which uploaded file to delete: its `fileStaticUri` as the upload answered it (with or without
 * the console's origin) or its stored name. Anything else, a path outside the store included, is
 * refused with 400 by the service.
 */
export const OssDeleteQuerySchema = Type.Object({
  deleteFilePath: Type.String({ minLength: 1, maxLength: 512 }),
});
export type OssDeleteQuery = Static<typeof OssDeleteQuerySchema>;

export const ossRoutes = defineRoutes({
  upload: {
    method: 'POST',
    url: '/api/yt/oss/upload',
    schema: {
      tags: ['oss'],
      summary: 'Upload an image (png, jpg, jpeg, gif; ≤ 5 MB), multipart field `file`; 507 below the disk floor or past the per-user quota',
      consumes: ['multipart/form-data'],
      response: { 200: UploadResultSchema, 400: ErrorBodySchema, 413: ErrorBodySchema, 507: ErrorBodySchema },
    },
    config: { access: 'user', permission: 'oss:upload' },
  },
  /**
   * Public on purpose: <img> tags send no bearer token, and the name is a content hash that cannot
   * be guessed; the platform logo must show on the login page before anyone signs in.
   */
  file: {
    method: 'GET',
    url: '/api/yt/oss/files/:name',
    schema: { tags: ['oss'], summary: 'Download an uploaded file', params: OssFileParamsSchema },
    config: { access: 'public' },
  },
  remove: {
    method: 'DELETE',
    url: '/api/yt/oss',
    schema: {
      tags: ['oss'],
      summary: 'Delete an uploaded file, named by its fileStaticUri (`deleteFilePath`); only files of the upload store, uploaded by the caller unless they hold oss:manage',
      querystring: OssDeleteQuerySchema,
      response: { 200: OkSchema, 400: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema },
    },
    config: { access: 'user', permission: 'oss:delete' },
  },
});
