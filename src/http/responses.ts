import type { DetailError, ValidationErrorItem } from '../schemas/errors.js';

/** Headers of every JSON answer. */
const JSON_HEADERS = { 'content-type': 'application/json' } as const;

/** A JSON answer, written compactly as FastAPI writes it. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } });
}

/** `{"detail": "..."}` with a status. */
export function detail(status: number, message: string, headers: Record<string, string> = {}): Response {
  return json(status, { detail: message } satisfies DetailError, headers);
}

/** 401 `{"detail": "Unauthorized"}`: the key is missing or wrong. */
export const unauthorized = (): Response => detail(401, 'Unauthorized');
/** 404 `{"detail": "Not Found"}`: unknown route or unknown id. */
export const notFound = (): Response => detail(404, 'Not Found');
/** 405 `{"detail": "Method Not Allowed"}` with the methods the path allows. */
export const methodNotAllowed = (allowed: string[]): Response => detail(405, 'Method Not Allowed', { allow: allowed.join(', ') });
/** 422 `{"detail": [...]}`: FastAPI's validation error. */
export const unprocessable = (errors: ValidationErrorItem[]): Response => json(422, { detail: errors });
