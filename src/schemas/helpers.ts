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
  /** `input`, when given, is what pydantic reports instead of the value sent (a dict a before-validator rewrote). */
  pydantic: { type: string; msg: string; ctx?: Record<string, unknown>; input?: unknown };
}

/** A zod issue carrying the exact pydantic error, at `path` below the value checked, for `ctx.issues.push`. */
export function pydanticIssue(input: unknown, pydantic: PydanticErrorParams['pydantic'], path: PropertyKey[] = []) {
  return { code: 'custom' as const, message: pydantic.msg, input, path, params: { pydantic } satisfies PydanticErrorParams };
}

/** Whether a JSON value is an object (a Python dict). */
export const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A pydantic model field of class `className` checked by `inner`: anything but an object is
 * `model_type` ("a valid dictionary or instance of LLM"), as pydantic words a model's type error.
 * The OpenAPI document shows `inner` (a pipe from a transform is written as its output side).
 */
export function modelField<T extends z.ZodMiniType>(className: string, inner: T) {
  // The transform's output is `any`, so that `inner` may declare the object's fields.
  return z.pipe(
    // biome-ignore lint/suspicious/noExplicitAny: see above
    z.transform<unknown, any>((value, ctx) => {
      if (isJsonObject(value)) return value;
      ctx.issues.push(
        pydanticIssue(value, {
          type: 'model_type',
          msg: `Input should be a valid dictionary or instance of ${className}`,
          ctx: { class_name: className },
        }),
      );
      return z.NEVER;
    }),
    inner,
  );
}

/** Digits, perhaps grouped by single underscores (`1_000`), as Python's `float()` reads them. */
const DIGITS = String.raw`\d(?:_?\d)*`;
/**
 * A decimal string pydantic's lax mode reads as a float (`"0.5"`, `" 1e1 "`, `"-.5"`, `"1_0"`);
 * its `inf` and `nan` are not taken here (JSON has no way to write them back).
 */
const FLOAT_STRING = new RegExp(String.raw`^\s*[+-]?(?:${DIGITS}\.?(?:${DIGITS})?|\.${DIGITS})(?:[eE][+-]?${DIGITS})?\s*$`);

/**
 * A float checked by `inner`, as pydantic's lax mode takes one: a number, a boolean (1.0 or 0.0),
 * or a decimal string; any other string is `float_parsing`, any other value `float_type`.
 */
export function laxFloat<T extends z.ZodMiniType<number, number>>(inner: T) {
  return z.pipe(
    z.transform<unknown, number>((value, ctx) => {
      if (typeof value === 'number') return value;
      if (typeof value === 'boolean') return value ? 1 : 0;
      if (typeof value === 'string') {
        if (FLOAT_STRING.test(value)) return Number(value.trim().replaceAll('_', ''));
        ctx.issues.push(
          pydanticIssue(value, { type: 'float_parsing', msg: 'Input should be a valid number, unable to parse string as a number' }),
        );
        return z.NEVER;
      }
      ctx.issues.push(pydanticIssue(value, { type: 'float_type', msg: 'Input should be a valid number' }));
      return z.NEVER;
    }),
    inner,
  );
}

/** How Python's `str()` writes a JSON value (`None`, `True`, `['a', 1]`, `{'k': 'v'}`), as an f-string shows it. */
export function pythonStr(value: unknown): string {
  if (typeof value === 'string') return value;
  return pythonRepr(value);
}

function pythonRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'string') return `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`;
  if (typeof value === 'object')
    return `{${Object.entries(value)
      .map(([k, v]) => `${pythonRepr(k)}: ${pythonRepr(v)}`)
      .join(', ')}}`;
  return String(value);
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
