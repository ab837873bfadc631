/**
 * Fastify's own validator (ajv) and serializer (fast-json-stringify) compilers, compiled on a
 * route's first use instead of at start-up. Compiling every contract route's schemas up front
 * was most of the cold start (budget: 250 ms to the first health answer, docs/BENCHMARKS.md) and
 * grows with every module; a gateway's admin uses a handful of routes per session.
 *
 * Behaviour is Fastify's default otherwise: the same compilers with the same options, only
 * deferred. Fastify treats any compilersFactory as custom and then skips lower-casing header
 * schemas, so that is done here.
 */
import AjvCompiler from '@fastify/ajv-compiler';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

interface RouteDefinition {
  schema: unknown;
  method: string;
  url: string;
  httpPart?: string;
  httpStatus?: string;
}
type Validate = ((data: unknown) => unknown) & { errors?: unknown };
type Serialize = (data: unknown) => string;
type Compile<F> = (route: RouteDefinition) => F;
type Builder<F> = (externalSchemas: unknown, options: unknown) => Compile<F>;

/** `{ properties: { 'X-Setup-Code': … }, required: ['X-Setup-Code'] }` → lower-case names, as Fastify does. */
function lowerCaseHeaders(schema: unknown): unknown {
  const s = schema as { properties?: Record<string, unknown>; required?: string[] } | null;
  if (!s || typeof s !== 'object' || Object.getPrototypeOf(s) !== Object.prototype) return schema;
  return {
    ...s,
    ...(s.properties ? { properties: Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k.toLowerCase(), v])) } : {}),
    ...(s.required ? { required: s.required.map((k) => k.toLowerCase()) } : {}),
  };
}

function lazyValidators(build: Builder<Validate>): Builder<Validate> {
  return (externalSchemas, options) => {
    let compile: Compile<Validate> | undefined;
    return (route) => {
      const def = route.httpPart === 'headers' ? { ...route, schema: lowerCaseHeaders(route.schema) } : route;
      let fn: Validate | undefined;
      const validate: Validate = (data) => {
        compile ??= build(externalSchemas, options);
        fn ??= compile(def);
        const result = fn(data);
        // Fastify reads the failure details from the function it was given.
        validate.errors = fn.errors;
        return result;
      };
      return validate;
    };
  };
}

function lazySerializers(build: Builder<Serialize>): Builder<Serialize> {
  return (externalSchemas, options) => {
    let compile: Compile<Serialize> | undefined;
    return (route) => {
      let fn: Serialize | undefined;
      return (data) => {
        compile ??= build(externalSchemas, options);
        fn ??= compile(route);
        return fn(data);
      };
    };
  };
}

/** The `schemaController` option of `Fastify({...})`. */
export function lazySchemaController(): NonNullable<FastifyServerOptions['schemaController']> {
  return {
    compilersFactory: {
      buildValidator: lazyValidators(AjvCompiler() as unknown as Builder<Validate>) as never,
      buildSerializer: lazySerializers(SerializerSelector() as unknown as Builder<Serialize>) as never,
    },
  };
}
