/**
 * An ACP conversation's agent as openhands-sdk 1.58.2 writes an `ACPAgent` in a `ConversationInfo`
 * (`sdk/agent/acp_agent.py`, `ACPAgent`: no tools nor default tools, no prompt options, its
 * `acp_*` fields with their defaults, `default_acp_file_secrets` from `settings/acp_providers.py`;
 * `_make_dummy_llm`: the LLM `acp-managed`, `model_post_init`: the `acp_model` when set), and no tool
 * modules (`tool_module_qualnames` `{}`).
 */
import { describe, expect, it } from 'vitest';
import { createFakeCore, type FakeCore } from '../../src/fake.js';

const AGENT = 'http://localhost:3001';

/** A request on a new fake's agent host: its JSON body. */
async function json(fake: FakeCore, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const init = body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
  return (await fake.fetch(new Request(`${AGENT}${path}`, init))).json() as Promise<Record<string, unknown>>;
}

const start = () =>
  createFakeCore({
    baseUrl: 'http://localhost:3000',
    agentUrl: AGENT,
    auth: 'none',
    fixture: 'empty',
    timings: 'instant',
    checkResponses: true,
  });

describe('POST /api/conversations with an ACPAgent', () => {
  it('writes the agent with its acp_* fields over their defaults, no tools, the acp-managed LLM, and no tool modules', async () => {
    const fake = await start();
    const created = await json(fake, '/api/conversations', {
      agent: { kind: 'ACPAgent', acp_command: ['claude-code-acp'], acp_args: ['--verbose'] },
      workspace: { working_dir: '/workspace/project' },
    });
    for (const info of [created, await json(fake, `/api/conversations/${String(created.id)}`)]) {
      const agent = info.agent as Record<string, unknown>;
      expect(agent).toMatchObject({
        kind: 'ACPAgent',
        tools: [],
        include_default_tools: [],
        system_prompt_kwargs: {},
        acp_command: ['claude-code-acp'],
        acp_server: null,
        acp_args: ['--verbose'],
        acp_session_mode: null,
        acp_prompt_timeout: 1800,
        acp_startup_timeout: 90,
        acp_model: null,
        acp_resume_session_id: null,
        acp_isolate_data_dir: false,
        llm: { model: 'acp-managed', usage_id: 'acp-managed', api_key: null },
      });
      expect(agent).not.toHaveProperty('persona');
      expect((agent.acp_file_secrets as { secret_name: string }[]).map((s) => s.secret_name)).toEqual([
        'CODEX_AUTH_JSON',
        'GOOGLE_APPLICATION_CREDENTIALS_JSON',
        'KIMI_CODE_CONFIG_TOML',
        'PI_AUTH_JSON',
      ]);
      expect(info.tool_module_qualnames).toEqual({});
    }
  });

  it('writes the model a switch_acp_model set as the agent’s acp_model and its LLM’s model', async () => {
    const fake = await start();
    const created = await json(fake, '/api/conversations', {
      agent: { kind: 'ACPAgent', acp_command: ['claude-code-acp'] },
      workspace: { working_dir: '/workspace/project' },
    });
    const path = `/api/conversations/${String(created.id)}`;
    await json(fake, `${path}/switch_acp_model`, { model: 'opus' });
    expect((await json(fake, path)).agent).toMatchObject({ acp_model: 'opus', llm: { model: 'opus' } });
  });
});
