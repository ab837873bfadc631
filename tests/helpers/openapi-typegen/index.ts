/**
 * TypeScript types of an OpenAPI document, as a client author gets them from openapi-typescript.
 * This folder is its own package (see its package.json) so openapi-typescript finds the
 * TypeScript 5 compiler API it builds its output with; the root keeps TypeScript 7.
 */
import { createConfig } from '@redocly/openapi-core';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';

/**
 * The `paths`, `components` and `operations` declarations for `doc`. openapi-typescript lints the
 * document with Redocly first and throws on errors, but its default rule set skips `struct` (the
 * check against the OpenAPI schema), so a document other generators refuse would pass: it is
 * turned on here, next to the duplicate-operationId check openapi-typescript asks for itself.
 */
export async function typesOf(doc: object): Promise<string> {
  const redocly = await createConfig({
    extends: ['minimal'],
    rules: { struct: 'error', 'operation-operationId-unique': 'error' },
  });
  return astToString(await openapiTS(structuredClone(doc) as OpenAPI3, { redocly, silent: true }));
}
