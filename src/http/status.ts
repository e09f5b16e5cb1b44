/**
 * The one table of error statuses: which schema each error answer has (for the contract check
 * and the OpenAPI document), and which status each refusal reason is answered with.
 */
import * as z from 'zod/mini';
import { AgentServerError } from '../schemas/conversation-ops.js';
import { DetailError, HTTPValidationError, LegacyError } from '../schemas/errors.js';

/** The legacy secrets routes' 400 (`{"message": ...}`). */
const MessageError = z.object({ message: z.string() });

/** `POST /api/v1/settings`'s 422 for the older nested keys (settings_router.py, store_settings). */
const NestedKeysError = z.object({ error: z.string(), keys: z.array(z.string()) });

/** Error statuses a route may declare besides 401 and 422. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 429 | 500 | 502 | 503 | 504 | 507;

/** Every error answer: its description and the schema of its body. */
export const ERROR_RESPONSES: Readonly<Record<number, { description: string; schema: z.ZodMiniType }>> = Object.freeze({
  400: {
    description: 'Bad Request: an id the real server refuses, or a reference to nothing',
    schema: z.union([DetailError, MessageError, z.string()]),
  },
  401: {
    description: 'Unauthorized: X-Session-API-Key missing or wrong (the legacy git routes: no provider token)',
    schema: z.union([DetailError, AgentServerError, z.string()]),
  },
  403: { description: "Forbidden: the session key is another sandbox's", schema: DetailError },
  404: {
    description: 'Not Found',
    schema: z.union([DetailError, LegacyError, AgentServerError, z.object({ status: z.literal('error'), conversation_id: z.string() })]),
  },
  405: { description: 'Method Not Allowed', schema: DetailError },
  409: { description: 'Conflict: not allowed in the current state', schema: DetailError },
  410: {
    description: 'Gone: the conversation is archived (its sandbox no longer exists), or the route was removed',
    schema: z.union([DetailError, AgentServerError]),
  },
  413: { description: 'Request body too large', schema: DetailError },
  422: {
    description: 'Validation Error (`POST /api/v1/settings` with the older nested keys: `{"error", "keys"}`)',
    schema: z.union([HTTPValidationError, NestedKeysError]),
  },
  429: { description: 'Too Many Requests: too many messages queued', schema: DetailError },
  500: {
    description:
      'Internal Server Error: the operation failed where the real one fails (a file written over a directory, a repository the provider does not have)',
    schema: z.union([DetailError, AgentServerError, z.string()]),
  },
  502: { description: 'Bad Gateway: the agent server answered an error', schema: DetailError },
  503: { description: 'Service Unavailable: the sandbox cannot take it now', schema: DetailError },
  504: { description: 'Gateway Timeout: the ACP server did not answer in time', schema: DetailError },
  507: { description: 'Insufficient Storage: the fake is at its limit of records or bytes', schema: DetailError },
});

export { REFUSAL_STATUS } from './refusal-status.js';
