/**
 * The contract check stage (option `checkResponses`): every answer must match its route's
 * response schema, or the schema of its declared error status. A mismatch throws: the fake
 * broke its own contract, and the test suite that asked for checks hears about it.
 */
import { FakehandsError } from '../domain/store/errors.js';
import type { Route } from './route.js';
import { ERROR_RESPONSES } from './status.js';

/** Statuses every route may answer besides the ones it declares. */
const ALWAYS_DECLARED = new Set([200, 401, 422, 507]);

/**
 * Throws a `FakehandsError` (`contract_violation`) when `body` is not what `route` declares for `status`.
 * @example
 * checkAnswer(route, 200, { items: [], next_page_id: null }, '/api/v1/sandboxes/search')
 */
export function checkAnswer(route: Route, status: number, body: unknown, path: string): void {
  const success = route.successStatus ?? 200;
  const declared = status === success || ALWAYS_DECLARED.has(status) || (route.errors ?? []).includes(status as 404);
  const schema = status === success ? route.response : ERROR_RESPONSES[status]?.schema;
  const result = declared && schema ? schema.safeParse(JSON.parse(JSON.stringify(body))) : null;
  if (result?.success) return;
  const problems = !declared
    ? `status ${status} is not declared for this route`
    : (result?.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') ?? 'no schema');
  throw new FakehandsError(
    'contract_violation',
    `fakehands answered ${route.method} ${path} with a ${status} body that does not match its schema: ${problems}`,
  );
}
