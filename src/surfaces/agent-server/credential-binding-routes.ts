/**
 * The agent server's credential-binding routes, which its document leaves out
 * (`include_in_schema=False`): copies `openhands-agent-server`'s `credential_binding.py`
 * (`prepare_for_sandbox_pause`, `activate_credential_binding`, `CredentialBindingActivation`).
 * The real server probes the binding's URL before it keeps it; the fake reaches no network, so a
 * well-formed binding of a secret that takes one (`CODEX_AUTH_JSON`, `acp_file_credentials.py`) is
 * taken as its source answered. Nothing the fake reports changes: its agents read no file credential.
 */
import * as z from 'zod/mini';
import { refuse } from '../../domain/store/refusal.js';
import { Uuid } from '../../schemas/common.js';
import { raw } from '../../http/responses.js';
import { defineRoute, type Route } from '../../http/route.js';
import { onAgentHost } from './host.js';

/** The secrets a file credential binding exists for (`_FILE_CREDENTIAL_LIFECYCLES`). */
const FILE_CREDENTIAL_SECRETS: readonly string[] = ['CODEX_AUTH_JSON'];

/** `CredentialBindingActivation`: a URL, and at most 16 headers, each name and value non-empty and bounded. */
const CredentialBindingActivation = z.strictObject({
  url: z.string().check(z.minLength(1), z.maxLength(4096)),
  headers: z._default(
    z
      .record(z.string(), z.string())
      .check(
        z.refine(
          (headers) =>
            Object.keys(headers).length <= 16 &&
            Object.entries(headers).every(([name, value]) => name && name.length <= 256 && value && value.length <= 8192),
          'Invalid credential binding headers',
        ),
      ),
    {},
  ),
});

/** Starlette's `Response(status_code=204)`: no body, no content type. */
function noContent() {
  const answer = raw(204, new Uint8Array(), '');
  delete (answer.headers as Record<string, string>)['content-type'];
  return answer;
}

/** The credential-binding routes (registered in `routes.ts`), left out of the document as the real ones are. */
export const credentialBindingRoutes: readonly Route[] = Object.freeze([
  defineRoute({
    method: 'POST',
    path: '/api/conversations/prepare-for-sandbox-pause',
    summary: "Close the conversations' services before the sandbox pauses: 204 (credential_binding.py, prepare_for_sandbox_pause)",
    internal: true,
    response: z.unknown(),
    handle: (input, context) => onAgentHost(input, context, () => noContent()),
  }),
  defineRoute({
    method: 'PUT',
    path: '/api/conversations/:conversation_id/credential-bindings/:secret_name',
    summary:
      'Bind a file credential to its source: 204; 404 for a secret that takes none (credential_binding.py, activate_credential_binding)',
    internal: true,
    params: z.object({ conversation_id: Uuid, secret_name: z.string() }),
    body: CredentialBindingActivation,
    response: z.unknown(),
    errors: [404],
    handle: (input, context) =>
      onAgentHost(input, context, () =>
        FILE_CREDENTIAL_SECRETS.includes(input.params.secret_name) ? noContent() : refuse('not_found', 'Not Found'),
      ),
  }),
]);
