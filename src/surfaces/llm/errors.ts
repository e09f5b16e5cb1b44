/**
 * The scripted LLM's error answers, each in its provider's own format and status: OpenAI's
 * `{"error": {message, type, param, code}}` (Chat Completions and Responses) and Anthropic's
 * `{"type": "error", "error": {type, message}}`. LiteLLM maps these statuses and codes to the
 * exceptions the SDK classifies (`RateLimitError`, `ContextWindowExceededError`, ...), so a script's
 * `fail` step reaches a real agent as the real provider's failure would.
 */
import { json, type Answer } from '../../http/responses.js';
import type { LlmFailure } from '../../domain/llm/turns.js';

/** The APIs the scripted LLM speaks. */
export type LlmApi = 'chat' | 'responses' | 'messages';

/** An OpenAI error body. */
export function openAiError(
  status: number,
  message: string,
  type: string,
  param: string | null = null,
  code: string | null = null,
): Answer {
  return json(status, { error: { message, type, param, code } });
}

/** An Anthropic error body. */
export function anthropicError(status: number, type: string, message: string): Answer {
  return json(status, { type: 'error', error: { type, message } });
}

/** OpenAI's status, type and code of each failure. */
const OPENAI_FAILURES: Record<LlmFailure, { status: number; type: string; code: string | null; param: string | null }> = {
  rate_limit: { status: 429, type: 'requests', code: 'rate_limit_exceeded', param: null },
  context_window: { status: 400, type: 'invalid_request_error', code: 'context_length_exceeded', param: 'messages' },
  authentication: { status: 401, type: 'invalid_request_error', code: 'invalid_api_key', param: null },
  unavailable: { status: 503, type: 'server_error', code: null, param: null },
  overloaded: { status: 503, type: 'server_error', code: 'overloaded', param: null },
  server_error: { status: 500, type: 'server_error', code: null, param: null },
};

/** Anthropic's status and type of each failure. */
const ANTHROPIC_FAILURES: Record<LlmFailure, { status: number; type: string }> = {
  rate_limit: { status: 429, type: 'rate_limit_error' },
  context_window: { status: 400, type: 'invalid_request_error' },
  authentication: { status: 401, type: 'authentication_error' },
  unavailable: { status: 503, type: 'api_error' },
  overloaded: { status: 529, type: 'overloaded_error' },
  server_error: { status: 500, type: 'api_error' },
};

/** A script's failure as `api`'s provider answers it. */
export function failureAnswer(api: LlmApi, failure: LlmFailure, message: string): Answer {
  if (api === 'messages') {
    const { status, type } = ANTHROPIC_FAILURES[failure];
    return anthropicError(status, type, failure === 'context_window' ? `prompt is too long: ${message}` : message);
  }
  const { status, type, code, param } = OPENAI_FAILURES[failure];
  return openAiError(
    status,
    failure === 'context_window' ? `This model's maximum context length is exceeded. ${message}` : message,
    type,
    param,
    code,
  );
}

/** A request body the API refuses (400 `invalid_request_error`), with the field at fault. */
export function invalidRequest(api: LlmApi, message: string, param: string | null): Answer {
  if (api === 'messages') return anthropicError(400, 'invalid_request_error', param === null ? message : `${param}: ${message}`);
  return openAiError(400, message, 'invalid_request_error', param);
}
