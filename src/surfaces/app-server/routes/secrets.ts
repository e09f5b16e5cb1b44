/**
 * The user's custom secrets and provider tokens on the app server: legacy `/api/secrets` and
 * `/api/unset-provider-tokens` (openhands `server/routes/secrets.py`) and the newest
 * `/api/v1/secrets` with `/api/v1/secrets/git-providers`. Values and tokens are never answered.
 */
import * as z from 'zod/mini';
import { storeGitProviders } from '../../../domain/user/git-providers.js';
import {
  createCustomSecret,
  deleteCustomSecret,
  listCustomSecrets,
  searchCustomSecrets,
  unsetProviderTokens,
  updateCustomSecret,
} from '../../../domain/user/secrets.js';
import { laxInt } from '../../../schemas/helpers.js';
import { POSTProviderModel } from '../../../schemas/legacy.js';
import {
  CustomSecretCreate,
  CustomSecretPage,
  CustomSecretWithoutValue,
  EditResponse,
  GETCustomSecrets,
} from '../../../schemas/user-secrets.js';
import { defineRoute, type Route } from '../../../http/route.js';

const SecretParam = z.object({ secret_id: z.string() });
/** The legacy routes' `dict[str, str]` answers (`{"message": ...}`). */
const StringMap = z.record(z.string(), z.string());

/** The secrets routes. */
export const secretRoutes: readonly Route[] = Object.freeze([
  defineRoute({
    method: 'GET',
    path: '/api/secrets',
    summary: 'The names and descriptions of the custom secrets',
    response: GETCustomSecrets,
    handle: (_input, context) => context.runner.run(listCustomSecrets),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/secrets',
    summary: 'Create a custom secret (201; 400 when the name is taken)',
    body: CustomSecretCreate,
    response: StringMap,
    successStatus: 201,
    errors: [400],
    handle: ({ body }, context) => context.runner.run(createCustomSecret, body),
  }),
  defineRoute({
    method: 'PUT',
    path: '/api/secrets/:secret_id',
    summary: 'Rename a custom secret and change its description (the value stays)',
    params: SecretParam,
    body: CustomSecretWithoutValue,
    response: StringMap,
    errors: [400, 404],
    handle: ({ params, body }, context) => context.runner.run(updateCustomSecret, params.secret_id, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/secrets/:secret_id',
    summary: 'Delete a custom secret',
    params: SecretParam,
    response: EditResponse,
    untypedInDocument: true,
    errors: [404],
    handle: ({ params }, context) => context.runner.run(deleteCustomSecret, params.secret_id),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/unset-provider-tokens',
    summary: 'Forget every git provider token',
    response: StringMap,
    handle: (_input, context) => context.runner.run(unsetProviderTokens),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/secrets/search',
    summary: 'A page of the custom secrets (names and descriptions), by name',
    query: z.object({
      name__contains: z.optional(z.string()),
      page_id: z.optional(z.string()),
      limit: z._default(laxInt(z.int().check(z.gt(0), z.lte(100))), 100),
    }),
    response: CustomSecretPage,
    handle: ({ query }, context) => context.runner.run(searchCustomSecrets, query),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/v1/secrets',
    summary: 'Create a custom secret (201; 400 when the name is taken)',
    body: CustomSecretCreate,
    response: EditResponse,
    successStatus: 201,
    errors: [400],
    handle: ({ body }, context) => context.runner.run(createCustomSecret, body),
  }),
  defineRoute({
    method: 'PUT',
    path: '/api/v1/secrets/:secret_id',
    summary: 'Rename a custom secret and change its description',
    params: SecretParam,
    body: CustomSecretWithoutValue,
    response: EditResponse,
    errors: [400, 404],
    handle: ({ params, body }, context) => context.runner.run(updateCustomSecret, params.secret_id, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/v1/secrets/:secret_id',
    summary: 'Delete a custom secret',
    params: SecretParam,
    response: EditResponse,
    errors: [404],
    handle: ({ params }, context) => context.runner.run(deleteCustomSecret, params.secret_id),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/v1/secrets/git-providers',
    summary: 'Store git provider tokens (an empty token keeps the stored one)',
    body: POSTProviderModel,
    response: EditResponse,
    handle: ({ body }, context) => context.runner.run(storeGitProviders, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/v1/secrets/git-providers',
    summary: 'Forget every git provider token',
    response: EditResponse,
    handle: (_input, context) => context.runner.run(unsetProviderTokens),
  }),
]);
