/**
 * Routes of the agent server 1.58.2 for configuring an agent: the tool and skill catalogs, a
 * plugin fetched without installing it, the repositories a git token reaches, and the models an
 * ACP server offers. Host-wide (`host-wide.ts`); each names the real function it copies, the
 * answers are `launch-catalogs.ts`'s.
 */
import * as z from 'zod/mini';
import { fetchPlugin, searchProviderRepositories, skillCatalog, toolCatalog } from '../../domain/agent-world/launch-catalogs.js';
import { laxInt } from '../../schemas/helpers.js';
import { defineRoute, type Route } from '../../http/route.js';
import { hostWide } from './host-wide.js';

const nullableString = z.nullable(z.string());
/** The ACP servers an agent may delegate to (`ACPAgentSettings.acp_server`). */
const ACP_SERVERS = ['claude-code', 'codex', 'gemini-cli', 'kimi-code', 'pi', 'opencode', 'custom'] as const;

/** The catalog and discovery routes (registered in `routes.ts`). */
export const catalogRoutes: readonly Route[] = hostWide([
  defineRoute({
    method: 'GET',
    path: '/api/tools/catalog',
    summary: 'The tools a client may pick for an agent, whether they can run, the default set (tool_router.py, get_tool_catalog)',
    response: z.object({
      tools: z.array(
        z.object({
          name: z.string(),
          user_selectable: z.boolean(),
          usable: z.boolean(),
          description: z.string(),
          in_default_set: z.boolean(),
        }),
      ),
    }),
    handle: async () => toolCatalog(),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/skills/catalog',
    summary: "The skills an agent profile's launch can load, public or the user's (skills_router.py, get_skill_catalog)",
    response: z.object({ skills: z.array(z.looseObject({ name: z.string(), origin: z.enum(['public', 'user']) })) }),
    handle: (_input, context) => context.runner.run(skillCatalog),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/plugins/fetch',
    summary:
      'Fetch and pin a plugin without installing it; 422 no plugin there, 502 a source out of reach (plugins_router.py, fetch_plugin_endpoint)',
    body: z.object({
      source: z.string(),
      ref: z.optional(nullableString),
      repo_path: z.optional(nullableString),
      secrets: z._default(z.record(z.string(), z.string()), {}),
      timeout: z._default(z.int(), 60),
    }),
    response: z.object({
      path: z.string(),
      resolved_ref: nullableString,
      source: z.string(),
      repo_path: nullableString,
      manifest: z.record(z.string(), z.unknown()),
      skills: z.array(z.unknown()),
      commands: z.array(z.unknown()),
    }),
    errors: [502],
    handle: async ({ body }) => fetchPlugin(body),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/git/repositories/search',
    summary:
      "The repositories the host's GitHub token reaches; missing_token without one, 400 for another provider (git_router.py, git_repositories_search)",
    query: z.object({
      provider: z.enum(['github', 'gitlab', 'bitbucket', 'azure_devops']),
      query: z.optional(z.string()),
      limit: z._default(laxInt(z.int().check(z.gte(1), z.lte(100))), 100),
      page_id: z.optional(z.string()),
    }),
    response: z.object({
      items: z.array(
        z.object({
          id: z.string(),
          full_name: z.string(),
          git_provider: z.string(),
          is_public: z.boolean(),
          stargazers_count: z.nullable(z.int()),
          pushed_at: nullableString,
          main_branch: nullableString,
        }),
      ),
      next_page_id: nullableString,
      missing_token: z.boolean(),
    }),
    errors: [400],
    handle: ({ query }, context) => context.runner.run(searchProviderRepositories, query),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/acp/models',
    summary: 'The models an ACP server offers: the fake starts none, so each answers its spawn error (acp_router.py, discover_models)',
    body: z.object({
      agent_settings: z.looseObject({ acp_server: z.optional(z.enum(ACP_SERVERS)) }),
      secrets: z._default(z.record(z.string(), z.string()), {}),
      refresh: z._default(z.boolean(), false),
    }),
    response: z.object({
      agent_name: nullableString,
      agent_version: nullableString,
      current_model_id: nullableString,
      available_models: z.array(z.object({ model_id: z.string(), name: nullableString, description: nullableString })),
      supports_runtime_model_switch: z.boolean(),
      error: z.nullable(z.object({ code: z.string(), detail: z.string() })),
    }),
    handle: async () => ({
      agent_name: null,
      agent_version: null,
      current_model_id: null,
      available_models: [],
      supports_runtime_model_switch: false,
      error: { code: 'ACPSpawnError', detail: 'The fake starts no ACP server process' },
    }),
  }),
]);
