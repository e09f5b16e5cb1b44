/**
 * Fault injection: for a method and a path pattern, answer with a status and body, fail the
 * network, delay, or move a sandbox to ERROR, once, a number of times, or until cleared.
 */
import { FakehandsError } from '../domain/store/errors.js';
import { FaultSpec, type Fault, type FaultSpecInput } from '../schemas/faults.js';
import { formatPath } from '../schemas/issue-path.js';
import { compilePattern, matchParts, type Pattern } from './path-pattern.js';

export type { Fault, FaultSpecInput } from '../schemas/faults.js';

/** Most faults held at once; adding more drops the oldest. */
export const MAX_FAULTS = 100;

/** The faults in force (`fake.faults`). */
export interface Faults {
  /**
   * Adds a fault; throws a `FakehandsError` (`invalid_fault`) naming the bad field when the spec is invalid.
   * @example
   * fake.faults.add({ kind: 'status', method: 'POST', path: '/api/v1/sandboxes', status: 503 })
   */
  add(input: FaultSpecInput): Fault;
  /** Removes every fault. */
  clear(): void;
  /** The faults in force, oldest first. */
  list(): Fault[];
  /** The first fault matching the request, used up by one; with the path parameters it matched. */
  take(method: string, path: string): { fault: Fault; params: Record<string, string> } | null;
}

/** What a fault does to a request: answer in the route's place, fail the network, or let the route answer (after its delay or sandbox failure). */
export type FaultEffect = { kind: 'answer'; status: number; body: unknown } | { kind: 'network' } | { kind: 'none' };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Takes the first fault matching a request and does what it does: waits out a `delay`, moves a
 * `sandbox_error`'s sandbox to ERROR (the fault's own id, else the one its pattern or the route's
 * path named; an unknown sandbox is left to the route, which answers 404 as usual).
 * @example
 * const effect = await applyFault(fake.faults, failSandbox, 'POST', '/api/v1/sandboxes', {})
 */
export async function applyFault(
  faults: Faults,
  failSandbox: (id: string) => Promise<unknown>,
  method: string,
  path: string,
  routeParams: Readonly<Record<string, string>>,
): Promise<FaultEffect> {
  const taken = faults.take(method, path);
  if (!taken) return { kind: 'none' };
  return applyTakenFault(taken, failSandbox, routeParams);
}

/** Does what a fault already taken (`Faults.take`) does: `applyFault` after the take, for a caller that looked for one itself. */
export async function applyTakenFault(
  taken: { fault: Fault; params: Record<string, string> },
  failSandbox: (id: string) => Promise<unknown>,
  routeParams: Readonly<Record<string, string>>,
): Promise<FaultEffect> {
  const { fault, params } = taken;
  switch (fault.kind) {
    case 'status':
      return { kind: 'answer', status: fault.status, body: fault.body ?? { detail: 'Injected fault' } };
    case 'network':
      return { kind: 'network' };
    case 'delay':
      await sleep(fault.delay_ms);
      return { kind: 'none' };
    case 'sandbox_error': {
      const id = fault.sandbox_id ?? params.sandbox_id ?? routeParams.sandbox_id;
      if (id) await failSandbox(id).catch(() => undefined);
      return { kind: 'none' };
    }
  }
}

/** An empty set of faults. */
export function createFaults(): Faults {
  let faults: Fault[] = [];
  /** Each fault's pattern, compiled once when it is added. */
  const patterns = new WeakMap<Fault, Pattern>();
  let nextId = 1;
  return {
    add(input) {
      const result = FaultSpec.safeParse(input);
      if (!result.success) {
        const problems = result.error.issues.map((i) => `${formatPath(i.path)}: ${i.message}`).join('; ');
        throw new FakehandsError('invalid_fault', `Failed to add a fault: ${problems}.`);
      }
      const fault: Fault = { ...result.data, id: nextId++, remaining: result.data.sticky ? null : result.data.times };
      patterns.set(fault, compilePattern(fault.path));
      faults.push(fault);
      if (faults.length > MAX_FAULTS) faults.shift();
      return { ...fault };
    },
    clear() {
      faults = [];
    },
    list() {
      return faults.map((f) => ({ ...f }));
    },
    take(method, path) {
      if (faults.length === 0) return null;
      const parts = path.split('/').slice(1);
      for (const fault of faults) {
        if (fault.method !== '*' && fault.method !== method) continue;
        const params = matchParts(patterns.get(fault)!, parts);
        if (!params) continue;
        if (fault.remaining !== null && --fault.remaining === 0) faults = faults.filter((f) => f !== fault);
        return { fault, params };
      }
      return null;
    },
  };
}
