/**
 * An ACP agent's own fields as openhands-sdk 1.58.2 defines them (`sdk/agent/acp_agent.py`,
 * `ACPAgent`): their defaults, and what the host keeps of a start request's (`acp_*`, any secret in
 * them masked). `agent-server.ts` (`acpAgentInfo`) writes the agent. The subprocess it names is
 * never started by the fake.
 */
import { redactSecrets } from '../store/redact.js';

/** The credential files an ACP agent materialises by default (`settings/acp_providers.py`, `default_acp_file_secrets`). */
const ACP_FILE_SECRETS = Object.freeze([
  {
    secret_name: 'CODEX_AUTH_JSON',
    filename: 'auth.json',
    env_var: 'CODEX_HOME',
    subdir: 'codex',
    env_points_to: 'dir',
    warn_if_unset: [],
  },
  {
    secret_name: 'GOOGLE_APPLICATION_CREDENTIALS_JSON',
    filename: 'gcloud-credentials.json',
    env_var: 'GOOGLE_APPLICATION_CREDENTIALS',
    subdir: 'gemini-cli',
    env_points_to: 'file',
    warn_if_unset: ['GOOGLE_CLOUD_PROJECT', 'GOOGLE_CLOUD_LOCATION'],
  },
  {
    secret_name: 'KIMI_CODE_CONFIG_TOML',
    filename: 'config.toml',
    env_var: 'KIMI_CODE_HOME',
    subdir: 'kimi-code',
    env_points_to: 'dir',
    warn_if_unset: [],
  },
  {
    secret_name: 'PI_AUTH_JSON',
    filename: 'auth.json',
    env_var: 'PI_CODING_AGENT_DIR',
    subdir: 'pi',
    env_points_to: 'dir',
    warn_if_unset: [],
  },
]);

/** An `ACPAgent`'s own fields with their defaults, in the model's order. */
export const ACP_DEFAULTS: Readonly<Record<string, unknown>> = Object.freeze({
  acp_command: [],
  acp_server: null,
  acp_args: [],
  acp_session_mode: null,
  acp_prompt_timeout: 1800,
  acp_startup_timeout: 90,
  acp_model: null,
  acp_resume_session_id: null,
  acp_file_secrets: ACP_FILE_SECRETS,
  acp_isolate_data_dir: false,
});

/** The `acp_*` fields of a start request's ACP agent (what the host keeps of it). */
export function acpFields(agent: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const key of Object.keys(ACP_DEFAULTS)) if (agent[key] !== undefined) kept[key] = agent[key];
  return redactSecrets(kept) as Record<string, unknown>;
}
