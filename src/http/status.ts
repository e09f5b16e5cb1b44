/**
 * The one table of error statuses: which schema each error answer has (for the contract check
 * and the OpenAPI document), and which status each domain error code is answered with.
 */
import type { FakehandsErrorCode } from '../domain/errors.js';
import { z } from 'zod';
import { DetailError, HTTPValidationError, LegacyError } from '../schemas/errors.js';

/** Error statuses a route may declare besides 401 and 422. */
export type ErrorStatus = 400 | 404 | 409;

/** Every error answer: its description and the schema of its body. */
export const ERROR_RESPONSES: Record<number, { description: string; schema: z.ZodType }> = {
  400: { description: 'Bad Request: an id the real server refuses, or a reference to nothing', schema: DetailError },
  401: { description: 'Unauthorized: X-Session-API-Key missing or wrong', schema: DetailError },
  404: { description: 'Not Found', schema: z.union([DetailError, LegacyError]) },
  405: { description: 'Method Not Allowed', schema: DetailError },
  409: { description: 'Conflict: not allowed in the current state', schema: DetailError },
  413: { description: 'Request body too large', schema: DetailError },
  422: { description: 'Validation Error', schema: HTTPValidationError },
};

/** The HTTP status of each domain error; codes not listed are not domain errors (500). */
export const DOMAIN_ERROR_STATUS: Partial<Record<FakehandsErrorCode, ErrorStatus>> = {
  not_found: 404,
  conflict: 409,
  bad_request: 400,
};
