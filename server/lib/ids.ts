import { randomUUID } from 'node:crypto';

/** Resource ids are UUID strings (docs/API.md: a create returns `id` as a string). */
export function newId(): string {
  return randomUUID();
}
