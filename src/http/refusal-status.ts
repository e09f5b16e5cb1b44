/**
 * Which status each refusal reason is answered with: what every error answer needs, apart from the
 * schemas of the error bodies (`status.ts`), which only the contract check and the OpenAPI
 * document read.
 */
import type { RefusalReason } from '../domain/store/errors.js';

/** The HTTP status of each refusal reason. */
export const REFUSAL_STATUS: Readonly<Record<RefusalReason, number>> = Object.freeze({
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  gone: 410,
  invalid: 422,
  too_many: 429,
  internal: 500,
  bad_gateway: 502,
  unavailable: 503,
  gateway_timeout: 504,
  storage_full: 507,
});
