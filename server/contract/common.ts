/** Schemas shared by many resources: paging, id lists, simple acknowledgements. */
import Type, { type Static, type TProperties, type TSchema, type TUnsafe } from 'typebox';
import { REPORTED_NAME_MAX, REPORTED_NAME_PATTERN } from './validation.ts';

/** Tables show 10 rows per page by default; a list answers at most 100 (docs/API.md, Responses). */
export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;

/**
 * The highest page a list accepts: 100 million rows at the largest page size, more than a gateway
 * holds. Without a bound, OFFSET = (page - 1) × pageSize overflows SQLite's 64-bit integer for
 * pages near 10^17, and the database error would answer 500 instead of 400.
 */
export const MAX_PAGE = 1_000_000;

export const PageQuerySchema = Type.Object({
  page: Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1 }),
  pageSize: Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE }),
});
export type PageQuery = Static<typeof PageQuerySchema>;

export function PageOf<T extends TSchema>(item: T) {
  return Type.Object({ items: Type.Array(item), total: Type.Integer({ minimum: 0 }) });
}

/** A resource id on the wire (UUID strings today; the bound keeps foreign ids usable). */
export const ResourceIdSchema = Type.String({ minLength: 1, maxLength: 64 });

export const IdParamsSchema = Type.Object({ id: ResourceIdSchema });
export const IdsBodySchema = Type.Object(
  { ids: Type.Array(ResourceIdSchema, { minItems: 1, maxItems: 1000 }) },
  { additionalProperties: false },
);

/**
 * The update body of a resource whose create body is `properties` (docs/API.md, Responses: POST
 * without `id`, PUT with it). PUT replaces the whole resource, so both bodies share every field.
 */
export function UpdateBodyOf<const P extends TProperties>(properties: P) {
  return Type.Object({ id: ResourceIdSchema, ...properties }, { additionalProperties: false });
}

export const OkSchema = Type.Object({ ok: Type.Boolean() });
export type Ok = Static<typeof OkSchema>;

/** Epoch milliseconds, the wire format of every date (docs/API.md, Responses). */
export const EpochMs = Type.Integer({ minimum: 0 });

/**
 * Marks a query or body field that takes a date as text too (server/plugins/date-input.ts), in
 * `$comment`: the one keyword outside validation that ajv's strict mode lets through.
 */
export const DATE_INPUT = 'date-input';

/**
 * A date a console call takes: epoch milliseconds or the spec's `YYYY-MM-DD HH:mm:ss` in the
 * gateway's time zone. The server turns the text into milliseconds before validation, so handlers
 * see a number; text that is no date fails validation (400).
 */
export const DateInput = Type.Integer({
  minimum: 0,
  description: 'epoch milliseconds, or YYYY-MM-DD HH:mm:ss in the gateway time zone',
  $comment: DATE_INPUT,
});

/** Table sort direction, named as the console's table component names it (Arco: ascend/descend). */
export const sortOrders = ['ascend', 'descend'] as const;
export const SortOrderSchema = Type.Enum(sortOrders);
export type SortOrder = (typeof sortOrders)[number];

/** `sortField` (one of a resource's whitelisted columns) and `sortOrder` of a list query. */
export function SortQueryProperties<const F extends readonly string[]>(fields: F) {
  return {
    sortField: Type.Optional(Type.Enum(fields)),
    sortOrder: Type.Optional(SortOrderSchema),
  };
}

/**
 * A value or null (optional fields of responses are always present, null when unset). Written as
 * `type: [T, 'null']` (or `null` added to an enum), not as anyOf: with ajv's type coercion an anyOf
 * would turn null into 0 or '' in its first branch, and a `null` branch first would turn 0 into null.
 */
export function Nullable<T extends TSchema>(schema: T): TUnsafe<Static<T> | null> {
  const raw = schema as unknown as { type?: unknown; enum?: unknown };
  if (typeof raw.type === 'string') return Type.Unsafe<Static<T> | null>({ ...schema, type: [raw.type, 'null'] });
  if (Array.isArray(raw.enum)) return Type.Unsafe<Static<T> | null>({ ...schema, enum: [...raw.enum, null] });
  return Type.Unsafe<Static<T> | null>(Type.Union([schema, Type.Null()]));
}

/** Answer of a bulk delete: how many rows went (unknown ids are skipped, so repeating is harmless). */
export const DeleteResultSchema = Type.Object({ deleted: Type.Integer({ minimum: 0 }) });
export type DeleteResult = Static<typeof DeleteResultSchema>;

/**
 * A device's or product's name as edits may send it back: a reported name (REPORTED_NAME_PATTERN)
 * passes the schema; the service holds a changed name to the typed rule (NAME_PATTERN).
 */
export const ReportedNameSchema = Type.String({ minLength: 1, maxLength: REPORTED_NAME_MAX, pattern: REPORTED_NAME_PATTERN });
