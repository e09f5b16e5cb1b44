/**
 * The scripted LLM as msw handlers: every request under an origin is answered by a `ScriptedLlm`
 * (in-process, for a test whose code calls an OpenAI- or Anthropic-compatible API).
 */
import { http } from 'msw/core/http';
import type { HttpHandler } from 'msw';
import { toResponse } from '../http/responses.js';
import type { ScriptedLlm } from '../surfaces/llm/index.js';

/**
 * msw handlers answering every request under `origin` with `llm`.
 * @example
 * setupServer(...llmHandlers(new ScriptedLlm({ scripts }), 'http://llm.test'))
 */
export function llmHandlers(llm: ScriptedLlm, origin: string): HttpHandler[] {
  const root = new URL(origin).origin;
  return [
    http.all(`${root}/*`, async ({ request }) => {
      const headers = [...request.headers.entries()];
      const answer = await llm.handle({
        method: request.method,
        url: request.url,
        headers: Object.assign(headers, { get: (name: string) => request.headers.get(name) }),
        text: () => request.text(),
      });
      return toResponse(answer);
    }),
  ];
}
