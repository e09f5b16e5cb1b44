/**
 * What `fake.faults.add()` takes (and `POST /_fakehands/faults`), and the names of the built-in
 * fixtures: what a running fake needs of the control API's schemas. The rest of them
 * (`control.ts`) come with the control API's routes, a chunk of their own in a page.
 */
import * as z from 'zod/mini';

/** Names of the fixtures that ship with fakehands. */
export const BUILT_IN_FIXTURES = Object.freeze(['default', 'empty'] as const);

/** Longest path pattern of a fault (a request is matched against every fault: bounded work). */
export const MAX_FAULT_PATH_CHARS = 2048;

const FaultCommon = {
  /** HTTP method the fault applies to, or `*` for any. */
  method: z._default(z.enum(['GET', 'POST', 'PATCH', 'DELETE', 'PUT', '*']), '*'),
  /** Path pattern relative to the base URL: `/api/v1/sandboxes/:sandbox_id/pause`, `*` matches the rest. */
  path: z.string().check(z.startsWith('/', 'a path pattern starts with "/"'), z.maxLength(MAX_FAULT_PATH_CHARS)),
  /** How many matching requests it applies to (default 1). */
  times: z._default(z.int().check(z.gte(1)), 1),
  /** Apply to every matching request until cleared (overrides `times`). */
  sticky: z._default(z.boolean(), false),
};

/** A fault to inject, as `fake.faults.add()` and `POST /_fakehands/faults` take it. */
export const FaultSpec = z.discriminatedUnion('kind', [
  z.strictObject({
    ...FaultCommon,
    kind: z.literal('status'),
    status: z.int().check(z.gte(400), z.lte(599)),
    body: z.optional(z.unknown()),
  }),
  z.strictObject({ ...FaultCommon, kind: z.literal('network') }),
  z.strictObject({ ...FaultCommon, kind: z.literal('delay'), delay_ms: z.int().check(z.gte(0), z.lte(60_000)) }),
  z.strictObject({ ...FaultCommon, kind: z.literal('sandbox_error'), sandbox_id: z.optional(z.string()) }),
]);
/** A fault as written by the caller. */
export type FaultSpecInput = z.input<typeof FaultSpec>;

/** A fault held by the fake: its spec, an id, and how many more requests it applies to (`null`: until cleared). */
export type Fault = z.output<typeof FaultSpec> & { id: number; remaining: number | null };
