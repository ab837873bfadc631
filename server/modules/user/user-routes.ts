/** HTTP for the signed-in user's own account: info, profile edit, password change. */
import type { FastifyInstance, FastifySchemaValidationError } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ErrorCode, type ErrorKey } from '../../contract/errors.ts';
import { userRoutes } from '../../contract/user.ts';
import { AppError, type ErrorDetail } from '../../lib/app-error.ts';
import { acceptMultipartFields, acceptUrlEncodedBodies } from '../../lib/form-bodies.ts';
import type { Services } from '../../module.ts';

/** Profile fields whose rule has its own message, so the form can say which rule a value broke. */
const profileFieldKeys: Record<string, ErrorKey> = {
  realName: 'error.user.realNameRequired',
  phoneNumber: 'error.user.phoneInvalid',
  email: 'error.user.emailInvalid',
};

/**
 * Schema failures of the profile body, one detail per field (a union such as "phone or empty"
 * yields several validator entries for one field; ajv stops at the first failing field). A field
 * with its own key names the error.
 */
function profileValidationError(errors: FastifySchemaValidationError[]): AppError {
  const byField = new Map<string, ErrorDetail>();
  for (const e of errors) {
    const missing = (e.params as { missingProperty?: string }).missingProperty;
    const name = e.instancePath.split('/')[1] ?? missing ?? '';
    if (byField.has(name)) continue;
    byField.set(name, {
      field: name ? `body.${name}` : 'body',
      key: profileFieldKeys[name] ?? 'error.validation',
      message: e.message ?? e.keyword,
    });
  }
  const details = [...byField.values()];
  const key = details.find((d) => d.key !== 'error.validation')?.key as ErrorKey | undefined;
  return new AppError(ErrorCode.BAD_REQUEST_PARAMS, key ?? 'error.validation', {}, { status: 400, details });
}

export async function registerUserRoutes(fastify: FastifyInstance, { profiles: service }: Pick<Services, 'profiles'>): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  acceptUrlEncodedBodies(app);

  app.route({ ...userRoutes.me, handler: async (request) => service.info(request.user!) });

  app.route({
    ...userRoutes.updateProfile,
    // The handler turns schema failures into per-field keys instead of the generic validation error.
    attachValidation: true,
    handler: async (request) => {
      if (request.validationError) throw profileValidationError(request.validationError.validation);
      return service.updateProfile(request.user!, request.body);
    },
  });

  app.route({
    ...userRoutes.resetPassword,
    handler: async (request) => {
      await service.changePassword(request.user!, request.body, request.ip);
      return { ok: true };
    },
  });

  // Multipart in a scope of its own: only this call takes a multipart body.
  await app.register(async (scope) => {
    await acceptMultipartFields(scope);
    scope.withTypeProvider<TypeBoxTypeProvider>().route({
      ...userRoutes.changePasswordByForm,
      handler: async (request) => {
        await service.changePassword(request.user!, request.body, request.ip);
        return { ok: true };
      },
    });
  });
}
