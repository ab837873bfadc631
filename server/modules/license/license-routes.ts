/**
 * Licence calls at their literal URLs outside /api/yt (docs/API.md, Base paths): the public status
 * (the console's guards read it before sign-in) and the `.lic` upload. Who may upload is decided
 * by the access hook (route access 'setup'), not here. A `.lic` file is read under the 5 MB limit of
 * every upload, then held to its own much smaller one.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ErrorCode } from '../../contract/errors.ts';
import { LICENSE_MAX_BYTES, licenseRoutes } from '../../contract/license.ts';
import { LICENSE_EXTENSION } from '../../contract/validation.ts';
import { AppError } from '../../lib/app-error.ts';
import { readUploadedFile, registerUploads } from '../../lib/upload.ts';
import type { Services } from '../../module.ts';

const LICENSE_FIELD = 'file';

export async function registerLicenseRoutes(app: FastifyInstance, { license }: Pick<Services, 'license'>): Promise<void> {
  await registerUploads(app);
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.route({
    ...licenseRoutes.find,
    handler: async (request) => {
      const info = license.info();
      // Public so the console's guards read the status before sign-in; who the licence was issued to is not for anyone.
      if (request.user || !info.license) return info;
      return { ...info, customer: '', license: { ...info.license, customer: '' } };
    },
  });

  r.route({
    ...licenseRoutes.upload,
    handler: async (request) => {
      const { filename, content } = await readUploadedFile(request, LICENSE_FIELD);
      if (!filename.toLowerCase().endsWith(`.${LICENSE_EXTENSION}`)) {
        throw new AppError(ErrorCode.BAD_REQUEST_PARAMS, 'error.upload.badType', { types: `.${LICENSE_EXTENSION}` }, { status: 400 });
      }
      if (content.length > LICENSE_MAX_BYTES) {
        throw new AppError(ErrorCode.BAD_REQUEST_PARAMS, 'error.upload.tooLarge', { size: `${LICENSE_MAX_BYTES / 1024} KB` }, { status: 413 });
      }
      return license.install(content);
    },
  });
}
