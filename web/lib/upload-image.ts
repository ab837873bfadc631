/** Image upload to the gateway's file store (`POST /api/yt/oss/upload`, at most 5 MB). */
import { ossRoutes } from '../../server/contract/oss.ts';
import { api } from './api-client.ts';

/** Stores an image on the gateway and returns the address to keep (`fileStaticUri`). */
export async function uploadImage(file: File): Promise<string> {
  const form = new FormData();
  form.append('file', file, file.name);
  const { fileStaticUri } = await api(ossRoutes.upload, { form });
  return fileStaticUri;
}
