/**
 * Sandbox-scoped routes under `/api/v1/sandboxes/{id}/settings/secrets`: what the agent inside a
 * sandbox calls, authenticated by the sandbox's own session key, not the app's (sandbox_router.py,
 * list_secret_names). A page never calls them: they are among the later routes.
 */
import * as z from 'zod/mini';
import { defineRoute, type Route } from '../../../http/route.js';
import { REDACTED } from '../../../domain/store/redact.js';
import { SecretNamesResponse } from '../../../schemas/conversation-ops.js';
import { SESSION_API_KEY_HEADER } from '../../../http/auth.js';
import { raw } from '../../../http/responses.js';
import { isRefusal, refuse } from '../../../domain/store/refusal.js';
import { sandboxSecretNames } from '../../../domain/conversations/conversation-ops.js';

/** The routes a sandbox's agent calls for the names (and masked values) of the secrets it may look up. */
export const sandboxSecretRoutes: readonly Route[] = [
  defineRoute({
    method: 'GET',
    path: '/api/v1/sandboxes/:sandbox_id/settings/secrets',
    public: true,
    summary: "The names of the secrets the sandbox may look up (never values); X-Session-API-Key is the sandbox's own key",
    response: SecretNamesResponse,
    errors: [401, 403],
    handle: ({ params, headers }, { runner }) => runner.run(sandboxSecretNames, params.sandbox_id, headers.get(SESSION_API_KEY_HEADER)),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/sandboxes/:sandbox_id/settings/secrets/:secret_name',
    public: true,
    summary: 'A secret the sandbox may look up, as plain text; the fake never hands out a secret and answers it masked',
    response: z.string(),
    untypedInDocument: true,
    errors: [401, 403, 404],
    handle: async ({ params, headers }, { runner }) => {
      const answer = await runner.run(sandboxSecretNames, params.sandbox_id, headers.get(SESSION_API_KEY_HEADER));
      if (isRefusal(answer)) return answer;
      if (!answer.secrets.some((s) => s.name === params.secret_name))
        return refuse('not_found', `Secret '${params.secret_name}' not found`);
      return raw(200, REDACTED, 'text/plain; charset=utf-8');
    },
  }),
];
