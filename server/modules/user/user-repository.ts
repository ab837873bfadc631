/** STUB — implemented by the session work. */
import type { Db } from '../../db/sqlite.ts';
export class UserRepository {
  constructor(readonly db: Db) {}
  adminExists(): boolean { return false; }
}
