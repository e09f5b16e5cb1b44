/**
 * The settings a fixture starts with, and the builder a fixture uses: a module of its own, so
 * loading the package (`fakehands`) does not load the settings' operations (they store git providers through
 * @msw/data, whose es-toolkit helpers are about 550 modules under ESM: BENCHMARKS "Import cost").
 */
import { UserSettingsRecord } from '../../schemas/user-settings.js';

/** The settings a fixture starts with unless it says otherwise: saved once, an LLM key set, V1 on. */
export function defaultUserSettings(): UserSettingsRecord {
  return UserSettingsRecord.parse({
    language: 'en',
    agent: 'CodeActAgent',
    security_analyzer: 'llm',
    confirmation_mode: false,
    llm_model: 'anthropic/claude-sonnet-4-5-20250929',
    llm_api_key: 'fake-llm-api-key',
    llm_base_url: null,
    remote_runtime_resource_factor: 1,
    user_consents_to_analytics: false,
    condenser_max_size: 120,
    git_user_name: 'openhands',
    git_user_email: 'openhands@all-hands.dev',
    v1_enabled: true,
    mcp_config: { sse_servers: [], stdio_servers: [], shttp_servers: [] },
  });
}

/**
 * Settings for a fixture: the defaults of a first save, with `overrides`.
 * @example
 * userSettings({ llm_model: 'openai/gpt-5-2025-08-07', confirmation_mode: true })
 */
export function userSettings(overrides: Partial<UserSettingsRecord> = {}): UserSettingsRecord {
  return UserSettingsRecord.parse({ ...defaultUserSettings(), ...overrides });
}
