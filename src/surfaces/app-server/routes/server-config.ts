/**
 * What the app server says about itself: health (`server/routes/health.py`), the legacy options
 * (`server/routes/public.py`), and the newest web-client config, model, provider and skill searches.
 */
import * as z from 'zod/mini';
import {
  AGENTS,
  LLM_MODELS,
  SECURITY_ANALYZERS,
  legacyServerConfig,
  searchModels,
  searchProviders,
  searchSkills,
  webClientConfig,
} from '../../../domain/user/server-config.js';
import { ProviderType } from '../../../schemas/common.js';
import { pageOf, LaxBool, laxInt } from '../../../schemas/helpers.js';
import { defineRoute, type Route } from '../../../http/route.js';

const nullableString = z.nullable(z.string());
/** `WebClientConfig` of the newest app server. */
const WebClientConfig = z.object({
  app_mode: z.enum(['oss', 'saas']),
  posthog_client_key: nullableString,
  feature_flags: z.object({
    enable_billing: z.boolean(),
    hide_llm_settings: z.boolean(),
    enable_jira: z.boolean(),
    enable_jira_dc: z.boolean(),
    enable_linear: z.boolean(),
    hide_users_page: z.boolean(),
    hide_billing_page: z.boolean(),
    hide_integrations_page: z.boolean(),
    hide_personal_workspaces: z.boolean(),
    allow_user_llm_configuration: z.boolean(),
    enable_acp: z.boolean(),
    deployment_mode: z.nullable(z.enum(['cloud', 'self_hosted'])),
    enable_onboarding: z.boolean(),
    enable_automations: z.boolean(),
    enable_agent_canvas_banner: z.boolean(),
  }),
  providers_configured: z.array(ProviderType),
  maintenance_start_time: nullableString,
  auth_url: nullableString,
  recaptcha_site_key: nullableString,
  faulty_models: z.array(z.string()),
  error_message: nullableString,
  updated_at: z.string(),
  github_app_slug: nullableString,
  gitlab_enabled: z.boolean(),
  provider_default_hosts: z.record(z.string(), z.string()),
  slack_enabled: z.boolean(),
  email_enabled: z.boolean(),
  email_change_enabled: z.boolean(),
  acp_providers: z.array(
    z.object({
      key: z.string(),
      display_name: z.string(),
      default_command: z.array(z.string()),
      default_model: nullableString,
      api_key_env_var: nullableString,
      base_url_env_var: nullableString,
      available_models: z.array(z.object({ id: z.string(), label: z.string() })),
    }),
  ),
  jira_dc_oauth_host: nullableString,
  jira_dc_service_account_managed: z.boolean(),
  jira_dc_service_account_email: nullableString,
  jira_dc_service_account_config_error: nullableString,
  kind: z.literal('WebClientConfig'),
});

const pageQuery = (defaultLimit: number) => ({
  page_id: z.optional(z.string()),
  limit: z._default(laxInt(z.int().check(z.gt(0), z.lte(100))), defaultLimit),
});
const STARTED_AT = Date.now();

/** The configuration routes. */
export const serverConfigRoutes: readonly Route[] = Object.freeze([
  defineRoute({
    method: 'GET',
    path: '/alive',
    summary: 'Liveness',
    public: true,
    untypedInDocument: true,
    response: z.object({ status: z.string() }),
    handle: async () => ({ status: 'ok' }),
  }),
  defineRoute({ method: 'GET', path: '/health', summary: 'Health', public: true, response: z.string(), handle: async () => 'OK' }),
  defineRoute({
    method: 'GET',
    path: '/ready',
    summary: 'Readiness',
    public: true,
    untypedInDocument: true,
    response: z.string(),
    handle: async () => 'OK',
  }),
  defineRoute({
    method: 'GET',
    path: '/server_info',
    summary: 'Uptime and version',
    public: true,
    untypedInDocument: true,
    response: z.record(z.string(), z.unknown()),
    handle: async (_input, context) => ({
      uptime: Math.floor((Date.now() - STARTED_AT) / 1000),
      idle_time: 0,
      version: context.version,
      title: 'fakehands',
    }),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/options/models',
    summary: 'The LLM models a user may pick',
    response: z.array(z.string()),
    handle: async () => [...LLM_MODELS],
  }),
  defineRoute({
    method: 'GET',
    path: '/api/options/agents',
    summary: 'The agents',
    response: z.array(z.string()),
    handle: async () => [...AGENTS],
  }),
  defineRoute({
    method: 'GET',
    path: '/api/options/security-analyzers',
    summary: 'The security analyzers',
    response: z.array(z.string()),
    handle: async () => [...SECURITY_ANALYZERS],
  }),
  defineRoute({
    method: 'GET',
    path: '/api/options/config',
    summary: "The server's configuration (an OSS install)",
    response: z.record(z.string(), z.unknown()),
    handle: async () => legacyServerConfig(),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/web-client/config',
    summary: 'What the web client needs to know about this install (WebClientConfig)',
    response: WebClientConfig,
    handle: (_input, context) => context.runner.run((state) => webClientConfig(new Date(state.clock.now()).toISOString())),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/config/models/search',
    summary: 'A page of the LLM models, by name, provider and verification',
    query: z.object({
      query: z.optional(z.string()),
      verified__eq: z.optional(LaxBool),
      provider__eq: z.optional(z.string()),
      ...pageQuery(50),
    }),
    response: pageOf(
      z.object({
        provider: z.nullable(z.string()),
        name: z.string(),
        verified: z.boolean(),
        hidden: z.boolean(),
        canonical: z.nullable(z.string()),
      }),
    ),
    handle: async ({ query }) => searchModels(query),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/config/providers/search',
    summary: 'A page of the LLM providers',
    query: z.object({ query: z.optional(z.string()), verified__eq: z.optional(LaxBool), ...pageQuery(100) }),
    response: pageOf(z.object({ name: z.string(), verified: z.boolean() })),
    handle: async ({ query }) => searchProviders(query),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/skills/search',
    summary: 'A page of the global skills',
    query: z.object(pageQuery(100)),
    response: pageOf(z.object({ name: z.string(), type: z.string(), source: z.string(), triggers: z.nullable(z.array(z.string())) })),
    handle: async ({ query }) => searchSkills(query),
  }),
]);
