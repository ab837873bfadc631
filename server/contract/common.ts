/** Schemas shared by many resources: paging, id lists, simple acknowledgements. */
import Type, { type Static, type TSchema } from 'typebox';

/** Table default page size (spec section 9) and the ceiling DESIGN.md section 4 fixes. */
export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;

export const PageQuerySchema = Type.Object({
  page: Type.Integer({ minimum: 1, default: 1 }),
  pageSize: Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE }),
});
export type PageQuery = Static<typeof PageQuerySchema>;

export function PageOf<T extends TSchema>(item: T) {
  return Type.Object({ items: Type.Array(item), total: Type.Integer({ minimum: 0 }) });
}

export const IdParamsSchema = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
export const IdsBodySchema = Type.Object(
  { ids: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 1000 }) },
  { additionalProperties: false },
);

export const OkSchema = Type.Object({ ok: Type.Boolean() });
export type Ok = Static<typeof OkSchema>;

/** Epoch milliseconds, the wire format of every date (DESIGN.md section 4). */
export const EpochMs = Type.Integer({ minimum: 0 });
