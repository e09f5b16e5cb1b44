/**
 * What the app server tells a web client about itself: the legacy options (openhands
 * `server/routes/public.py`: models, agents, security analyzers, and `server_config.get_config()`
 * of an OSS install), and the newest `/api/v1/web-client/config`, `/api/v1/config/models|providers/search`
 * and `/api/v1/skills/search`. Fixed data, the same for every fake.
 */
import { pageFrom } from '../store/paging.js';

/** The models `GET /api/options/models` lists, sorted (a sample of LiteLLM's, with the verified OpenHands ones). */
export const LLM_MODELS: readonly string[] = Object.freeze(
  [
    'anthropic/claude-haiku-4-5-20251001',
    'anthropic/claude-opus-4-1-20250805',
    'anthropic/claude-sonnet-4-20250514',
    'anthropic/claude-sonnet-4-5-20250929',
    'deepseek/deepseek-chat',
    'gemini/gemini-2.5-flash',
    'gemini/gemini-2.5-pro',
    'mistral/devstral-medium-2507',
    'mistral/devstral-small-2507',
    'openai/gpt-4.1',
    'openai/gpt-4o',
    'openai/gpt-5-2025-08-07',
    'openai/gpt-5-codex',
    'openai/gpt-5-mini-2025-08-07',
    'openai/o3',
    'openai/o4-mini',
    'openhands/claude-opus-4-1-20250805',
    'openhands/claude-sonnet-4-20250514',
    'openhands/claude-sonnet-4-5-20250929',
    'openhands/devstral-medium-2507',
    'openhands/gemini-2.5-pro',
    'openhands/gpt-5-2025-08-07',
    'openhands/gpt-5-mini-2025-08-07',
    'openrouter/anthropic/claude-sonnet-4.5',
    'ollama/qwen3-coder:30b',
    'xai/grok-4',
  ].sort(),
);

/** The models OpenHands verifies (`verified` in the newest model search). */
const VERIFIED = new Set([
  'anthropic/claude-sonnet-4-5-20250929',
  'anthropic/claude-opus-4-1-20250805',
  'openai/gpt-5-2025-08-07',
  'openhands/claude-sonnet-4-5-20250929',
  'openhands/gpt-5-2025-08-07',
  'mistral/devstral-medium-2507',
  'gemini/gemini-2.5-pro',
]);

/** `GET /api/options/agents` (`Agent.list_agents()`, sorted). */
export const AGENTS: readonly string[] = Object.freeze([
  'BrowsingAgent',
  'CodeActAgent',
  'LocAgent',
  'ReadOnlyAgent',
  'VisualBrowsingAgent',
]);

/** `GET /api/options/security-analyzers` (`SecurityAnalyzers`, sorted). */
export const SECURITY_ANALYZERS: readonly string[] = Object.freeze(['grayswan', 'invariant', 'llm']);

/** `GET /api/options/config`: an OSS install's `ServerConfig.get_config()` (no analytics key: the fake reports nothing anywhere). */
export function legacyServerConfig() {
  return {
    APP_MODE: 'oss',
    GITHUB_CLIENT_ID: '',
    POSTHOG_CLIENT_KEY: '',
    FEATURE_FLAGS: { ENABLE_BILLING: false, HIDE_LLM_SETTINGS: false },
  };
}

/** `GET /api/v1/web-client/config` (`WebClientConfig`) of an OSS install. */
export function webClientConfig(nowIso: string) {
  return {
    app_mode: 'oss' as const,
    posthog_client_key: null,
    kind: 'WebClientConfig' as const,
    feature_flags: {
      enable_billing: false,
      hide_llm_settings: false,
      enable_jira: false,
      enable_jira_dc: false,
      enable_linear: false,
      hide_users_page: true,
      hide_billing_page: true,
      hide_integrations_page: false,
      hide_personal_workspaces: false,
      allow_user_llm_configuration: true,
      enable_acp: true,
      deployment_mode: 'self_hosted' as const,
      enable_onboarding: false,
      enable_automations: false,
      enable_agent_canvas_banner: false,
    },
    providers_configured: [],
    maintenance_start_time: null,
    auth_url: null,
    recaptcha_site_key: null,
    faulty_models: [],
    error_message: null,
    updated_at: nowIso,
    github_app_slug: null,
    gitlab_enabled: false,
    provider_default_hosts: { github: 'github.com', gitlab: 'gitlab.com', bitbucket: 'bitbucket.org' },
    slack_enabled: false,
    email_enabled: false,
    email_change_enabled: false,
    acp_providers: [],
    jira_dc_oauth_host: null,
    jira_dc_service_account_managed: false,
    jira_dc_service_account_email: null,
    jira_dc_service_account_config_error: null,
  };
}

/** A model as the newest search lists it (`LLMModel`). */
function llmModel(id: string) {
  const [provider, ...rest] = id.split('/');
  const name = rest.join('/');
  return { provider: provider ?? null, name, verified: VERIFIED.has(id), hidden: false, canonical: name.replace(/-\d{8}$/, '') };
}

/** `GET /api/v1/config/models/search`. */
export function searchModels(query: {
  query?: string | undefined;
  verified__eq?: boolean | undefined;
  provider__eq?: string | undefined;
  page_id?: string | undefined;
  limit: number;
}) {
  const models = LLM_MODELS.map(llmModel).filter(
    (m) =>
      (!query.query || `${m.provider}/${m.name}`.toLowerCase().includes(query.query.toLowerCase())) &&
      (query.verified__eq === undefined || m.verified === query.verified__eq) &&
      (!query.provider__eq || m.provider === query.provider__eq),
  );
  return pageFrom(models, query.page_id, query.limit);
}

/** `GET /api/v1/config/providers/search`. */
export function searchProviders(query: {
  query?: string | undefined;
  verified__eq?: boolean | undefined;
  page_id?: string | undefined;
  limit: number;
}) {
  const providers = [...new Set(LLM_MODELS.map((id) => id.split('/')[0]!))]
    .sort()
    .map((name) => ({ name, verified: ['anthropic', 'openai', 'openhands', 'mistral', 'gemini'].includes(name) }))
    .filter(
      (p) =>
        (!query.query || p.name.includes(query.query.toLowerCase())) &&
        (query.verified__eq === undefined || p.verified === query.verified__eq),
    );
  return pageFrom(providers, query.page_id, query.limit);
}

/** The global skills every conversation can use (`SkillInfo`). */
const SKILLS = [
  ['github', ['github', 'git']],
  ['gitlab', ['gitlab', 'git']],
  ['bitbucket', ['bitbucket']],
  ['docker', ['docker', 'container']],
  ['kubernetes', ['kubernetes', 'k8s']],
  ['npm', ['npm', 'package']],
  ['ssh', ['ssh']],
  ['security', ['security', 'vulnerability']],
  ['code-review', ['/codereview']],
  ['fix_test', ['/fix_test']],
  ['add_agent', ['/add_agent']],
  ['update_test', ['/update_test']],
] as const;

/** `GET /api/v1/skills/search`. */
export function searchSkills(query: { page_id?: string | undefined; limit: number }) {
  const skills = SKILLS.map(([name, triggers]) => ({ name, type: 'knowledge', source: 'global', triggers: [...triggers] }));
  return pageFrom(skills, query.page_id, query.limit);
}
