/**
 * Fault injection: for a method and a path pattern, answer with a status and body, fail the
 * network, delay, or move a sandbox to ERROR, once, a number of times, or until cleared.
 */
import { z } from 'zod';

/** Most faults held at once; adding more drops the oldest. */
export const MAX_FAULTS = 100;

const Common = {
  /** HTTP method the fault applies to, or `*` for any. */
  method: z.enum(['GET', 'POST', 'PATCH', 'DELETE', 'PUT', '*']).default('*'),
  /** Path pattern relative to the base URL: `/api/v1/sandboxes/:sandbox_id/pause`, `*` matches the rest. */
  path: z.string().startsWith('/', 'a path pattern starts with "/"'),
  /** How many matching requests it applies to (default 1). */
  times: z.int().min(1).default(1),
  /** Apply to every matching request until cleared (overrides `times`). */
  sticky: z.boolean().default(false),
};

/** A fault to inject, as `fake.faults.add()` and `POST /_fakehands/faults` take it. */
export const FaultSpec = z.discriminatedUnion('kind', [
  z.strictObject({ ...Common, kind: z.literal('status'), status: z.int().min(400).max(599), body: z.unknown().optional() }),
  z.strictObject({ ...Common, kind: z.literal('network') }),
  z.strictObject({ ...Common, kind: z.literal('delay'), delay_ms: z.int().min(0).max(60_000) }),
  z.strictObject({ ...Common, kind: z.literal('sandbox_error'), sandbox_id: z.string().optional() }),
]);
/** A fault as written by the caller. */
export type FaultSpecInput = z.input<typeof FaultSpec>;
/** A fault held by the fake. */
export type Fault = z.output<typeof FaultSpec> & { id: number; remaining: number | null };

/** Matches a path against a pattern with `:name` segments and a trailing `*`; returns the parameters or null. */
export function matchPattern(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/').slice(1);
  const got = path.split('/').slice(1);
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const segment = want[i]!;
    if (segment === '*' && i === want.length - 1) return params;
    const part = got[i];
    if (part === undefined) return null;
    if (segment.startsWith(':')) {
      try {
        params[segment.slice(1)] = decodeURIComponent(part);
      } catch {
        return null;
      }
    } else if (segment !== part) {
      return null;
    }
  }
  return want.length === got.length ? params : null;
}

/** The faults in force. */
export class Faults {
  #faults: Fault[] = [];
  #nextId = 1;

  /**
   * Adds a fault; throws a TypeError naming the bad field when the spec is invalid.
   * @example
   * fake.faults.add({ kind: 'status', method: 'POST', path: '/api/v1/sandboxes', status: 503 })
   */
  add(input: FaultSpecInput): Fault {
    const result = FaultSpec.safeParse(input);
    if (!result.success) {
      const problems = result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
      throw new TypeError(`Failed to add a fault: ${problems}.`);
    }
    const fault: Fault = { ...result.data, id: this.#nextId++, remaining: result.data.sticky ? null : result.data.times };
    this.#faults.push(fault);
    if (this.#faults.length > MAX_FAULTS) this.#faults.shift();
    return fault;
  }

  /** Removes every fault. */
  clear(): void {
    this.#faults = [];
  }

  /** The faults in force, oldest first. */
  list(): Fault[] {
    return this.#faults.map((f) => ({ ...f }));
  }

  /** The first fault matching the request, used up by one; with the path parameters it matched. */
  take(method: string, path: string): { fault: Fault; params: Record<string, string> } | null {
    for (const fault of this.#faults) {
      if (fault.method !== '*' && fault.method !== method) continue;
      const params = matchPattern(fault.path, path);
      if (!params) continue;
      if (fault.remaining !== null && --fault.remaining === 0) this.#faults = this.#faults.filter((f) => f !== fault);
      return { fault, params };
    }
    return null;
  }
}
