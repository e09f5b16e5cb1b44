/**
 * The sectioned settings schemas a settings form renders (`SettingsSchema`: sections of fields with
 * a label, a value type, a prominence and dependencies), as openhands-sdk `settings/model.py`
 * exports them (`export_agent_settings_schema()`, `ConversationSettings.export_schema()`), in short:
 * the sections Agent Canvas's panes filter on (LLM, Memory `agent_context`, Condenser,
 * Verification). Both the agent server (`/api/settings/agent-schema`) and the app server
 * (`/api/v1/settings/agent-schema`, settings_router.py load_settings_schema) answer these.
 */

/** One field of a settings form (`SettingsFieldSchema`). */
const field = (
  key: string,
  label: string,
  section: string,
  sectionLabel: string,
  valueType: 'string' | 'integer' | 'number' | 'boolean',
  extra: Record<string, unknown> = {},
) => ({
  key,
  label,
  description: null,
  section,
  section_label: sectionLabel,
  value_type: valueType,
  default: null,
  prominence: 'major',
  depends_on: [],
  secret: false,
  choices: [],
  variant: null,
  ...extra,
});

const verification = (key: string, label: string, valueType: 'string' | 'integer' | 'number' | 'boolean', extra: Record<string, unknown>) =>
  field(`verification.${key}`, label, 'verification', 'Verification', valueType, extra);

/** `export_agent_settings_schema()`, in short: the LLM, memory, the condenser, verification (the critic). */
export const AGENT_SETTINGS_SCHEMA = {
  model_name: 'AgentSettings',
  sections: [
    {
      key: 'llm',
      label: 'LLM',
      variant: 'openhands',
      fields: [
        // The prominences of openhands-sdk `llm/llm.py` (model and key critical, base URL major): Agent
        // Canvas's basic view (its onboarding) saves only the critical fields and resets the others.
        field('llm.model', 'Model', 'llm', 'LLM', 'string', { prominence: 'critical' }),
        field('llm.base_url', 'Base URL', 'llm', 'LLM', 'string'),
        field('llm.api_key', 'API Key', 'llm', 'LLM', 'string', { secret: true, prominence: 'critical' }),
      ],
    },
    {
      // `OpenHandsAgentSettings.agent_context` (section "Memory"): `AgentContext.load_memory`.
      key: 'agent_context',
      label: 'Memory',
      variant: 'openhands',
      fields: [field('agent_context.load_memory', 'Persistent memory', 'agent_context', 'Memory', 'boolean', { default: false })],
    },
    {
      key: 'condenser',
      label: 'Condenser',
      variant: 'openhands',
      fields: [
        field('condenser.enabled', 'Enable memory condensation', 'condenser', 'Condenser', 'boolean', {
          default: true,
          prominence: 'critical',
        }),
        field('condenser.max_size', 'Max size', 'condenser', 'Condenser', 'integer', {
          default: 120,
          prominence: 'minor',
          depends_on: ['condenser.enabled'],
        }),
      ],
    },
    {
      // `VerificationSettings`: the critic.
      key: 'verification',
      label: 'Verification',
      variant: 'openhands',
      fields: [
        verification('critic_enabled', 'Enable critic', 'boolean', { default: false, prominence: 'critical' }),
        verification('critic_mode', 'Critic mode', 'string', {
          default: 'finish_and_message',
          prominence: 'minor',
          depends_on: ['verification.critic_enabled'],
          choices: [
            { value: 'finish_and_message', label: 'finish_and_message' },
            { value: 'all_actions', label: 'all_actions' },
          ],
        }),
        verification('enable_iterative_refinement', 'Enable iterative refinement', 'boolean', {
          default: false,
          prominence: 'critical',
          depends_on: ['verification.critic_enabled'],
        }),
        verification('critic_threshold', 'Critic threshold', 'number', {
          default: 0.6,
          prominence: 'minor',
          depends_on: ['verification.critic_enabled', 'verification.enable_iterative_refinement'],
        }),
        verification('max_refinement_iterations', 'Max refinement iterations', 'integer', {
          default: 3,
          prominence: 'minor',
          depends_on: ['verification.critic_enabled', 'verification.enable_iterative_refinement'],
        }),
      ],
    },
  ],
};

/** `ConversationSettings.export_schema()`, in short: the limit (General), confirmation and the analyzer (Verification). */
export const CONVERSATION_SETTINGS_SCHEMA = {
  model_name: 'ConversationSettings',
  sections: [
    {
      key: 'general',
      label: 'General',
      variant: null,
      fields: [field('max_iterations', 'Max iterations', 'general', 'General', 'integer', { default: 500 })],
    },
    {
      key: 'verification',
      label: 'Verification',
      variant: null,
      fields: [
        field('confirmation_mode', 'Confirmation mode', 'verification', 'Verification', 'boolean', {
          default: false,
          prominence: 'critical',
        }),
        field('security_analyzer', 'Security analyzer', 'verification', 'Verification', 'string', {
          default: 'llm',
          depends_on: ['confirmation_mode'],
          choices: [
            { value: 'llm', label: 'LLM' },
            { value: 'none', label: 'None' },
          ],
        }),
      ],
    },
  ],
};
