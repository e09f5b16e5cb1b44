/**
 * `POST /api/v1/settings` with the newest payload and the sectioned settings schemas, as openhands
 * `app_server/settings/settings_router.py` answers them (store_settings: `agent_settings_diff` and
 * `conversation_settings_diff` deep-merged by `settings_models.py` Settings.update; load_settings_schema: `export_agent_settings_schema()`;
 * load_conversation_settings_schema: `ConversationSettings.export_schema()`).
 */
import { describe, expect, it } from 'vitest';
import { call, useFake } from '../support/api.js';

useFake({ fixture: 'empty' });
const LLM_KEY = 'sk-fakehands-diff-test-0123456789';

interface Schema {
  model_name: string;
  sections: { key: string; label: string; fields: { key: string; secret: boolean; prominence: string }[] }[];
}
type V1Settings = {
  agent_settings: Record<string, unknown> & { llm: Record<string, unknown> };
  conversation_settings: Record<string, unknown>;
  llm_api_key_set: boolean;
};

describe('POST /api/v1/settings (agent_settings_diff, conversation_settings_diff)', () => {
  it('deep-merges the diffs: a later diff keeps what an earlier one set; the key is stored and never answered', async () => {
    expect(
      await call('POST', '/api/v1/settings', {
        body: { agent_settings_diff: { llm: { model: 'anthropic/claude-sonnet-4-5-20250929', api_key: LLM_KEY } } },
      }),
    ).toEqual(expect.objectContaining({ status: 200, body: { message: 'Settings stored' } }));
    expect(
      await call('POST', '/api/v1/settings', {
        body: {
          agent_settings_diff: { condenser: { max_size: 80 }, verification: { critic_enabled: true } },
          conversation_settings_diff: { confirmation_mode: true },
          language: 'fr',
        },
      }),
    ).toMatchObject({ status: 200 });
    const got = await call<V1Settings>('GET', '/api/v1/settings');
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      language: 'fr',
      llm_api_key_set: true,
      agent_settings: {
        llm: { model: 'anthropic/claude-sonnet-4-5-20250929', api_key: null },
        condenser: { enabled: true, max_size: 80 },
        verification: { critic_enabled: true },
      },
      conversation_settings: { confirmation_mode: true, max_iterations: 500 },
    });
    expect(JSON.stringify(got.body)).not.toContain(LLM_KEY);
  });

  it('answers 422 for a diff that is not an object or a value the settings cannot take, and changes nothing', async () => {
    await call('POST', '/api/v1/settings', { body: { agent_settings_diff: { llm: { model: 'openai/gpt-5-2025-08-07' } } } });
    const before = (await call('GET', '/api/v1/settings')).body;
    expect(await call('POST', '/api/v1/settings', { body: { agent_settings_diff: 'llm' } })).toMatchObject({
      status: 422,
      body: { detail: [{ loc: ['body', 'agent_settings_diff'] }] },
    });
    expect(
      await call('POST', '/api/v1/settings', { body: { conversation_settings_diff: { max_iterations: 0 }, language: 'de' } }),
    ).toMatchObject({ status: 422, body: { detail: [{ type: 'value_error', loc: ['body', 'conversation_settings_diff'] }] } });
    expect(await call('POST', '/api/v1/settings', { body: { agent_settings_diff: { llm: { model: 7 } } } })).toMatchObject({ status: 422 });
    expect((await call('GET', '/api/v1/settings')).body).toEqual(before);
  });
});

describe('GET /api/v1/settings/agent-schema', () => {
  it('answers the sectioned SettingsSchema the agent server answers: LLM (key secret), Memory, Condenser, Verification', async () => {
    const got = await call<Schema>('GET', '/api/v1/settings/agent-schema');
    expect(got.status).toBe(200);
    expect(got.body.model_name).toBe('AgentSettings');
    expect(got.body.sections.map((s) => s.key)).toEqual(['llm', 'agent_context', 'condenser', 'verification']);
    expect(got.body.sections[0]!.fields.find((f) => f.key === 'llm.api_key')).toMatchObject({ secret: true, prominence: 'critical' });
  });
});

describe('GET /api/v1/settings/conversation-schema', () => {
  it('answers the sectioned SettingsSchema: max_iterations under General, confirmation and the analyzer under Verification', async () => {
    const got = await call<Schema>('GET', '/api/v1/settings/conversation-schema');
    expect(got.status).toBe(200);
    expect(got.body.model_name).toBe('ConversationSettings');
    expect(got.body.sections.map((s) => [s.key, s.fields.map((f) => f.key)])).toEqual([
      ['general', ['max_iterations']],
      ['verification', ['confirmation_mode', 'security_analyzer']],
    ]);
  });
});
