/**
 * FastAPI's error bodies, built in this one place for every surface that answers as FastAPI does
 * (the app server, the agent server, the control API): `{"detail": "..."}`, and `{"detail": [...]}`
 * with pydantic's items for a 422. A route with a body of its own (the legacy PATCH's
 * `{"status": "error", ...}`, an agent-server `{"error": ...}`) sets it on its refusal.
 */
import type { Refusal } from '../domain/store/refusal.js';
import { json, type Answer } from './responses.js';
import { REFUSAL_STATUS } from './refusal-status.js';
import type { DetailError, HTTPValidationError } from '../schemas/errors.js';

/**
 * A refusal as a FastAPI server answers it.
 * @example
 * fastApiRefusal(refuse('conflict', 'Sandbox is paused')) // 409 {"detail": "Sandbox is paused"}
 */
export function fastApiRefusal(refusal: Refusal): Answer {
  const body: DetailError | HTTPValidationError | unknown =
    refusal.body !== undefined
      ? refusal.body
      : refusal.reason === 'invalid'
        ? ({ detail: [...refusal.errors] } satisfies HTTPValidationError)
        : ({ detail: refusal.detail } satisfies DetailError);
  return json(REFUSAL_STATUS[refusal.reason], body, { ...refusal.headers });
}
