/**
 * Schema helpers of the HTTP layer and the stored records: pydantic's lax parsing of strings,
 * page and batch envelopes, and the exact pydantic error a custom check reports. Not part of the
 * public `schemas` export.
 */
import * as z from 'zod/mini';

/**
 * Attaches the exact pydantic v2 error (type, msg, ctx) a custom check reports,
 * so that the HTTP layer can answer with the real service's 422 item.
 */
export interface PydanticErrorParams {
  pydantic: { type: string; msg: string; ctx?: Record<string, unknown> };
}

/** A page of a search endpoint: `{"items": [...], "next_page_id": string|null}`. */
export function pageOf<T extends z.ZodMiniType>(item: T) {
  return z.object({ items: z.array(item), next_page_id: z.nullable(z.string()) });
}

/** A batch get answer: an array aligned with the ids asked for, `null` for each missing one. */
export function batchOf<T extends z.ZodMiniType>(item: T) {
  return z.array(z.nullable(item));
}

/** Strings pydantic's lax mode reads as booleans. */
const TRUE_STRINGS = new Set(['1', 'on', 't', 'true', 'y', 'yes']);
const FALSE_STRINGS = new Set(['0', 'off', 'f', 'false', 'n', 'no']);

/** An integer checked by `inner`, also given as a string of digits (pydantic's lax mode, and every query parameter). */
export function laxInt<T extends z.ZodMiniType<number>>(inner: T) {
  return z.pipe(
    z.transform((value) => (typeof value === 'string' && /^\s*[+-]?\d+\s*$/.test(value) ? Number(value) : value)),
    inner,
  );
}

/** Any integer, also given as a string of digits. */
export const LaxInt = laxInt(z.int());

/** A boolean, also given as `true`/`false`/`1`/`0`/`yes`/`no`/... (pydantic's lax mode). */
export const LaxBool = z.pipe(
  z.transform((value) => {
    if (typeof value === 'string') {
      const lower = value.trim().toLowerCase();
      if (TRUE_STRINGS.has(lower)) return true;
      if (FALSE_STRINGS.has(lower)) return false;
    }
    if (value === 0 || value === 1) return value === 1;
    return value;
  }),
  z.boolean(),
);
