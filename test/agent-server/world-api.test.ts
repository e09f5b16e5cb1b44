/**
 * The agent server's host-wide routes on the agent host, standalone (node:http) and in process
 * (msw): settings, LLM and agent profiles, LLM lists, skills, plugins, hooks, tools, sub-agents,
 * workspaces, the host's files, commits, the shell and its socket, the workspace session, init.
 * Each describe names the real openhands-agent-server file and function it copies.
 */
import { setupServer } from 'msw/node';
import WebSocket from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createFake } from '../../src/index.js';
import { startFakeServers, type FakeServers } from '../../src/server/start.js';
import { startConversation } from './support.js';

type Answer = { status: number; body: unknown; headers: Headers };
let servers: FakeServers;
let keyed: FakeServers;

/** Calls the agent host of `on` (the open one by default). */
const call = async (path: string, init: RequestInit & { key?: string; tenant?: string; on?: FakeServers } = {}): Promise<Answer> => {
  const { key, tenant, on = servers, ...rest } = init;
  const headers: Record<string, string> = {
    ...(rest.body !== undefined && typeof rest.body === 'string' ? { 'content-type': 'application/json' } : {}),
    ...(key ? { 'x-session-api-key': key } : {}),
    ...(tenant ? { 'x-fakehands-tenant': tenant } : {}),
  };
  const response = await fetch(`${on.agentUrl}${path}`, { ...rest, headers });
  const type = response.headers.get('content-type') ?? '';
  const body: unknown = response.status === 204 ? null : type.includes('json') ? await response.json() : await response.text();
  return { status: response.status, body, headers: response.headers };
};
const json = (method: string, body: unknown) => ({ method, body: JSON.stringify(body) });

beforeAll(async () => {
  servers = await startFakeServers({ fake: { timings: 'instant', fixture: 'empty', auth: 'none' } });
  keyed = await startFakeServers({ fake: { timings: 'instant', fixture: 'empty', auth: 'all', apiKey: 'app-key' } });
});
afterAll(async () => {
  await servers.close();
  await keyed.close();
});
afterEach(async () => {
  await servers.fake.reset();
});

describe('who may call the host-wide routes (sockets.py / dependencies.py, check_session_api_key)', () => {
  it("under --auth none they take any key or none; otherwise a RUNNING sandbox's key, 401 without", async () => {
    expect((await call('/api/settings')).status).toBe(200);
    expect((await call('/api/settings', { key: 'anything' })).status).toBe(200);
    expect(await call('/api/settings', { on: keyed })).toMatchObject({ status: 401, body: { detail: 'Unauthorized' } });
    expect(await call('/api/bash/bash_events/search', { on: keyed, key: 'nope' })).toMatchObject({ status: 401 });
  });
});

describe('GET /api/settings (settings_router.py, get_settings)', () => {
  // openhands-agent-server 1.58.2 settings_router.py get_settings on a fresh host: PersistedSettings()
  // dumped whole (openhands-sdk settings/model.py OpenHandsAgentSettings and ConversationSettings, llm/llm.py LLM).
  it("answers 1.58.2's SettingsResponse on a fresh host: every agent and conversation setting at its default, no LLM key, no profile", async () => {
    const { status, body } = await call('/api/settings');
    expect(status).toBe(200);
    expect(body).toEqual({
      agent_settings: {
        schema_version: 9,
        agent_kind: 'openhands',
        agent: 'CodeActAgent',
        llm: {
          model: 'gpt-5.6',
          api_key: null,
          provider_connection_id: null,
          auth_type: 'api_key',
          subscription_vendor: null,
          base_url: null,
          api_version: null,
          aws_access_key_id: null,
          aws_secret_access_key: null,
          aws_session_token: null,
          aws_region_name: null,
          aws_profile_name: null,
          aws_role_name: null,
          aws_session_name: null,
          aws_bedrock_runtime_endpoint: null,
          openrouter_site_url: 'https://docs.all-hands.dev/',
          openrouter_app_name: 'OpenHands',
          num_retries: 5,
          retry_multiplier: 8.0,
          retry_min_wait: 8,
          retry_max_wait: 64,
          timeout: 300,
          stream_idle_timeout: 300.0,
          max_message_chars: 30000,
          temperature: null,
          top_p: null,
          top_k: null,
          max_input_tokens: null,
          max_output_tokens: null,
          model_canonical_name: null,
          api_mode: 'auto',
          capability_overrides: {},
          extra_headers: null,
          input_cost_per_token: null,
          output_cost_per_token: null,
          ollama_base_url: null,
          stream: false,
          drop_params: true,
          disable_vision: null,
          disable_stop_word: false,
          caching_prompt: true,
          log_completions: false,
          log_completions_folder: 'logs/completions',
          custom_tokenizer: null,
          native_tool_calling: true,
          force_string_serializer: null,
          inline_image_urls: null,
          reasoning_effort: 'high',
          reasoning_summary: null,
          enable_encrypted_reasoning: true,
          prompt_cache_retention: '24h',
          extended_thinking_budget: 200000,
          seed: null,
          usage_id: 'default',
          litellm_extra_body: {},
          is_subscription: false,
        },
        tools: null,
        enable_classify_and_switch_llm_tool: false,
        active_meta_profile: null,
        meta_profile: null,
        meta_profile_llms: {},
        tool_concurrency_limit: 1,
        mcp_config: {},
        persona: null,
        agent_context: {
          skills: [],
          system_message_suffix: null,
          user_message_suffix: null,
          load_user_skills: false,
          load_public_skills: false,
          marketplace_path: 'marketplaces/default.json',
          registered_marketplaces: [],
          load_project_skills: false,
          load_memory: false,
          disabled_skills: [],
          secrets: null,
          current_datetime: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        },
        condenser: {
          condenser_kind: 'llm_summarizing',
          enabled: true,
          max_size: 240,
          max_tokens: null,
          keep_first: 2,
          minimum_progress: 0.1,
          hard_context_reset_max_retries: 5,
          hard_context_reset_context_scaling: 0.8,
        },
        verification: {
          critic_enabled: false,
          critic_mode: 'finish_and_message',
          enable_iterative_refinement: false,
          critic_threshold: 0.6,
          max_refinement_iterations: 3,
          critic_server_url: null,
          critic_model_name: null,
          critic_api_key: null,
        },
      },
      conversation_settings: {
        schema_version: 1,
        max_iterations: 500,
        confirmation_mode: false,
        security_analyzer: 'llm',
        default_runtime: 'local',
        worktree_base: 'default_branch',
        worktree_base_ref: null,
        worktree_branch_prefix: 'openhands/',
        container_memory: null,
        container_cpus: null,
        container_browser: true,
      },
      llm_api_key_is_set: false,
      active_profile: null,
      active_agent_profile_id: null,
      active_meta_profile: null,
      misc_settings: {},
    });
  });

  // agent_profiles_router.py _seed_default_llm_profile and _llm_has_real_config: a keyless LLM is not mirrored.
  it("lists no LLM profile on a fresh host; a configured LLM (a key) is mirrored into an active `default` profile, which Agent Canvas's local backend reads", async () => {
    expect((await call('/api/profiles')).body).toEqual({ profiles: [], active_profile: null });
    await call(
      '/api/settings',
      json('PATCH', { agent_settings_diff: { llm: { model: 'anthropic/claude-sonnet-4-5-20250929', api_key: 'sk-1' } } }),
    );
    expect((await call('/api/profiles')).body).toEqual({
      profiles: [
        {
          name: 'default',
          model: 'anthropic/claude-sonnet-4-5-20250929',
          base_url: null,
          api_key_set: true,
          provider_connection_id: null,
          provider_connection_broken: false,
        },
      ],
      active_profile: 'default',
    });
    await call('/api/profiles/other', json('POST', { llm: { model: 'openai/gpt-5' } }));
    await call('/api/profiles/default', { method: 'DELETE' });
    expect(((await call('/api/profiles')).body as { profiles: { name: string }[] }).profiles.map((p) => p.name)).toEqual(['other']);
  });

  // profiles_router.py get_profile: the profile as LLMProfileStore loads it, a whole LLM (every field, its defaults), its key null.
  it('answers one LLM profile as the whole LLM it holds: the model first, every field with its default, the key null', async () => {
    await call('/api/profiles/whole', json('POST', { llm: { model: 'openai/gpt-5', base_url: 'http://llm.test/v1', api_key: 'sk-2' } }));
    const { body } = await call('/api/profiles/whole');
    const { name, config, api_key_set } = body as { name: string; config: Record<string, unknown>; api_key_set: boolean };
    expect({ name, api_key_set }).toEqual({ name: 'whole', api_key_set: true });
    expect(Object.keys(config)[0]).toBe('model');
    expect(config).toMatchObject({
      model: 'openai/gpt-5',
      base_url: 'http://llm.test/v1',
      api_key: null,
      usage_id: 'default',
      num_retries: 5,
      caching_prompt: true,
      litellm_extra_body: {},
    });
  });

  it('never answers a secret in clear, even when X-Expose-Secrets asks for plaintext', async () => {
    await call('/api/settings', json('PATCH', { agent_settings_diff: { llm: { api_key: 'sk-very-secret' } } }));
    const answer = await fetch(`${servers.agentUrl}/api/settings`, { headers: { 'x-expose-secrets': 'plaintext' } });
    expect(await answer.text()).not.toContain('sk-very-secret');
  });
});

describe('PATCH /api/settings (settings_router.py, update_settings and _resolve_active_profile_llm)', () => {
  it('deep-merges the diffs, keeps them (a later GET reads them), and a null inside a nested map deletes that entry', async () => {
    const patched = await call(
      '/api/settings',
      json('PATCH', {
        agent_settings_diff: {
          llm: { model: 'openai/gpt-5-2025-08-07' },
          mcp_config: { svc: { url: 'https://mcp.example.com', headers: { 'X-Old': 'a', 'X-Keep': 'b' } } },
        },
        conversation_settings_diff: { max_iterations: 42 },
        misc_settings_diff: { app_preferences: { theme: 'dark', sound: true } },
      }),
    );
    expect(patched.status).toBe(200);
    await call(
      '/api/settings',
      json('PATCH', {
        agent_settings_diff: { mcp_config: { svc: { headers: { 'X-Old': null } } } },
        misc_settings_diff: { app_preferences: { sound: false } },
      }),
    );
    const { body } = (await call('/api/settings')) as {
      body: {
        agent_settings: { llm: { model: string }; mcp_config: Record<string, { headers: Record<string, string> }> };
        conversation_settings: { max_iterations: number };
        misc_settings: unknown;
      };
    };
    expect(body.agent_settings.llm.model).toBe('openai/gpt-5-2025-08-07');
    expect(Object.keys(body.agent_settings.mcp_config.svc!.headers)).toEqual(['X-Keep']);
    expect(body.conversation_settings.max_iterations).toBe(42);
    expect(body.misc_settings).toEqual({ app_preferences: { theme: 'dark', sound: false } });
  });

  it('answers 400 when nothing is given, 422 "Settings validation failed" for a bad value, 422 with the pydantic detail for a bad body; nothing changes', async () => {
    expect(await call('/api/settings', json('PATCH', {}))).toMatchObject({
      status: 400,
      body: { detail: expect.stringContaining('At least one of agent_settings_diff') },
    });
    expect(await call('/api/settings', json('PATCH', { conversation_settings_diff: { max_iterations: 0 } }))).toEqual(
      expect.objectContaining({ status: 422, body: { detail: 'Settings validation failed' } }),
    );
    expect(await call('/api/settings', json('PATCH', { agent_settings_diff: 'llm' }))).toMatchObject({
      status: 422,
      body: { detail: [{ loc: ['body', 'agent_settings_diff'] }] },
    });
    expect(
      ((await call('/api/settings')).body as { conversation_settings: { max_iterations: number } }).conversation_settings.max_iterations,
    ).toBe(500);
  });

  it("active_profile applies the profile's LLM; an unknown profile answers 404", async () => {
    await call('/api/profiles/fast', json('POST', { llm: { model: 'openai/gpt-5-mini-2025-08-07', api_key: 'sk-fast' } }));
    const { body } = (await call('/api/settings', json('PATCH', { active_profile: 'fast' }))) as {
      body: { active_profile: string; agent_settings: { llm: { model: string } } };
    };
    expect(body.active_profile).toBe('fast');
    expect(body.agent_settings.llm.model).toBe('openai/gpt-5-mini-2025-08-07');
    expect(await call('/api/settings', json('PATCH', { active_profile: 'nope' }))).toMatchObject({
      status: 404,
      body: { detail: "Profile 'nope' not found" },
    });
  });

  // openhands-sdk settings/model.py apply_agent_settings_diff and _merge_patch (agent), persistence/models.py
  // PersistedSettings.update and _deep_merge (conversation); settings_router.py _require_pointer_targets.
  it('merge-patches the agent diff as 1.58.2 does: null resets a field to its default, unknown keys are dropped, a new agent_kind starts afresh', async () => {
    type Settings = {
      status: number;
      body: {
        agent_settings: Record<string, unknown> & { llm?: Record<string, unknown>; condenser?: Record<string, unknown> };
        conversation_settings: Record<string, unknown>;
        llm_api_key_is_set: boolean;
      };
    };
    const patch = async (body: unknown) => (await call('/api/settings', json('PATCH', body))) as Settings;
    const set = await patch({
      agent_settings_diff: { tool_concurrency_limit: 3, bogus: 1, llm: { temperature: 0.5, aws_access_key_id: 'AKIA-secret', bogus: 2 } },
      conversation_settings_diff: { default_runtime: 'docker', container_memory: '4g', container_cpus: 2, bogus: 3 },
    });
    expect(set.status).toBe(200);
    expect(set.body.agent_settings).toMatchObject({
      tool_concurrency_limit: 3,
      llm: { temperature: 0.5, aws_access_key_id: '**********' },
    });
    expect(set.body.agent_settings).not.toHaveProperty('bogus');
    expect(set.body.agent_settings.llm).not.toHaveProperty('bogus');
    expect(set.body.conversation_settings).toMatchObject({ default_runtime: 'docker', container_memory: '4g', container_cpus: 2 });
    expect(set.body.conversation_settings).not.toHaveProperty('bogus');
    expect(JSON.stringify(set.body)).not.toContain('AKIA-secret');
    const reset = await patch({ agent_settings_diff: { tool_concurrency_limit: null, condenser: { condenser_kind: 'no_op' } } });
    expect(reset.body.agent_settings).toMatchObject({ tool_concurrency_limit: 1, llm: { temperature: 0.5 } });
    expect(reset.body.agent_settings.condenser).toEqual({ condenser_kind: 'no_op', enabled: true });
    const acp = await patch({ agent_settings_diff: { agent_kind: 'acp' } });
    expect(acp.body.agent_settings).toMatchObject({ schema_version: 9, agent_kind: 'acp', acp_server: 'claude-code', agent_context: null });
    expect(acp.body.agent_settings).not.toHaveProperty('llm');
    expect(acp.body.llm_api_key_is_set).toBe(false);
    const back = await patch({ agent_settings_diff: { agent_kind: 'openhands' } });
    expect(back.body.agent_settings).toMatchObject({ tool_concurrency_limit: 1, llm: { model: 'gpt-5.6', temperature: null } });
  });

  it('answers 422 "Settings validation failed" for a value out of 1.58.2\'s bounds and 404 for a pointer to nothing; nothing changes', async () => {
    const before = (await call('/api/settings')).body as { conversation_settings: unknown };
    for (const body of [
      { agent_settings_diff: { llm: { temperature: 'hot' } } },
      { agent_settings_diff: { condenser: { max_size: 10 } } },
      { agent_settings_diff: { tool_concurrency_limit: 0 } },
      { conversation_settings_diff: { max_iterations: null } },
      { conversation_settings_diff: { worktree_base: 'ref' } },
      { conversation_settings_diff: { default_runtime: 'cloud' } },
    ]) {
      expect(await call('/api/settings', json('PATCH', body))).toMatchObject({
        status: 422,
        body: { detail: 'Settings validation failed' },
      });
    }
    expect(await call('/api/settings', json('PATCH', { active_meta_profile: 'nope' }))).toMatchObject({
      status: 404,
      body: { detail: "Meta-profile 'nope' not found" },
    });
    const id = '8a3a0c6f-6d3c-4c43-a5a8-3f0d8a1b2c3d';
    expect(await call('/api/settings', json('PATCH', { active_agent_profile_id: id }))).toMatchObject({
      status: 404,
      body: { detail: `Agent profile with id '${id}' not found` },
    });
    expect((await call('/api/settings', json('PATCH', { active_meta_profile: null }))).status).toBe(200);
    expect(((await call('/api/settings')).body as { conversation_settings: unknown }).conversation_settings).toEqual(
      before.conversation_settings,
    );
  });

  it("is kept per tenant: one tenant's change is not another's", async () => {
    await call('/api/settings', { ...json('PATCH', { conversation_settings_diff: { max_iterations: 7 } }), tenant: 'alice' });
    const alice = (await call('/api/settings', { tenant: 'alice' })) as { body: { conversation_settings: { max_iterations: number } } };
    const bob = (await call('/api/settings', { tenant: 'bob' })) as { body: { conversation_settings: { max_iterations: number } } };
    expect([alice.body.conversation_settings.max_iterations, bob.body.conversation_settings.max_iterations]).toEqual([7, 500]);
  });
});

describe('GET /api/settings/agent-schema and /conversation-schema (settings_router.py, get_agent_settings_schema, get_conversation_settings_schema)', () => {
  it('answer a SettingsSchema: sections of fields, the API key marked secret', async () => {
    const agent = (await call('/api/settings/agent-schema')) as {
      status: number;
      body: { model_name: string; sections: { key: string; fields: { key: string; secret: boolean }[] }[] };
    };
    expect(agent.status).toBe(200);
    expect(agent.body.model_name).toBe('AgentSettings');
    expect(agent.body.sections[0]!.fields.find((f) => f.key === 'llm.api_key')?.secret).toBe(true);
    expect(await call('/api/settings/conversation-schema')).toMatchObject({
      status: 200,
      body: { model_name: 'ConversationSettings', sections: [{ key: 'general' }, { key: 'verification' }] },
    });
  });
});

describe('POST, PATCH, DELETE /api/settings/mcp/{settings_key} (settings_router.py, create_mcp_server, patch_mcp_server, delete_mcp_server)', () => {
  it('adds one server (201), 409 when it exists, changes it sparsely, removes it alone, 404 when missing', async () => {
    expect((await call('/api/settings/mcp/docs', json('POST', { url: 'https://docs.example.com/mcp' }))).status).toBe(201);
    await call('/api/settings/mcp/other', json('POST', { command: 'npx', args: ['server'] }));
    expect(await call('/api/settings/mcp/docs', json('POST', { url: 'https://x' }))).toMatchObject({
      status: 409,
      body: { detail: "MCP server 'docs' already exists" },
    });
    const patched = (await call('/api/settings/mcp/docs', json('PATCH', { timeout: 30 }))) as {
      body: { agent_settings: { mcp_config: Record<string, unknown> } };
    };
    expect(patched.body.agent_settings.mcp_config.docs).toEqual({ url: 'https://docs.example.com/mcp', timeout: 30 });
    const deleted = (await call('/api/settings/mcp/docs', { method: 'DELETE' })) as {
      body: { agent_settings: { mcp_config: Record<string, unknown> } };
    };
    expect(Object.keys(deleted.body.agent_settings.mcp_config)).toEqual(['other']);
    expect(await call('/api/settings/mcp/docs', { method: 'DELETE' })).toMatchObject({
      status: 404,
      body: { detail: "MCP server 'docs' was not found" },
    });
    expect((await call('/api/settings/mcp/bad', json('POST', { description: 'no url' }))).status).toBe(422);
  });

  it("takes the names of Object.prototype's members as any other name: a server is there only once created", async () => {
    for (const name of ['toString', 'valueOf', 'hasOwnProperty', 'constructor']) {
      expect(await call(`/api/settings/mcp/${name}`, json('PATCH', { timeout: 30 })), name).toMatchObject({
        status: 404,
        body: { detail: `MCP server '${name}' was not found` },
      });
      expect((await call(`/api/settings/mcp/${name}`, { method: 'DELETE' })).status, name).toBe(404);
      expect((await call(`/api/settings/mcp/${name}`, json('POST', { url: 'https://docs.example.com/mcp' }))).status, name).toBe(201);
      expect((await call(`/api/settings/mcp/${name}`, json('POST', { url: 'https://docs.example.com/mcp' }))).status, name).toBe(409);
      expect((await call(`/api/settings/mcp/${name}`, { method: 'DELETE' })).status, name).toBe(200);
    }
  });
});

describe('/api/settings/secrets (settings_router.py, list_secrets, create_secret, get_secret_value, delete_secret)', () => {
  it('upserts a secret and lists names and descriptions; its value is never answered; deletes it; 404 and 422 as the real one', async () => {
    expect(
      await call('/api/settings/secrets', json('PUT', { name: 'GITHUB_TOKEN', value: 'ghp_secret', description: 'ci' })),
    ).toMatchObject({ status: 200, body: { name: 'GITHUB_TOKEN', description: 'ci' } });
    await call('/api/settings/secrets', json('PUT', { name: 'GITHUB_TOKEN', value: 'ghp_other', description: 'ci 2' }));
    const list = await call('/api/settings/secrets');
    expect(list.body).toEqual({ secrets: [{ name: 'GITHUB_TOKEN', description: 'ci 2' }] });
    expect(JSON.stringify(list.body)).not.toContain('ghp_');
    expect(await call('/api/settings/secrets/GITHUB_TOKEN')).toMatchObject({ status: 404, body: { detail: 'Secret not found' } });
    expect(await call('/api/settings/secrets', json('PUT', { name: '9bad', value: 'x' }))).toMatchObject({
      status: 422,
      body: { detail: expect.stringContaining('Invalid secret name format') },
    });
    expect(await call('/api/settings/secrets/GITHUB_TOKEN', { method: 'DELETE' })).toMatchObject({ status: 200, body: { deleted: true } });
    expect(await call('/api/settings/secrets/GITHUB_TOKEN', { method: 'DELETE' })).toMatchObject({
      status: 404,
      body: { detail: 'Secret not found' },
    });
  });
});

describe('/api/profiles (profiles_router.py, list_profiles, get_profile, save_profile, delete_profile, rename_profile, activate_profile)', () => {
  it('saves (201), lists with api_key_set, shows one with a null key, renames (409 when taken), activates, deletes', async () => {
    expect(
      await call('/api/profiles/fast', json('POST', { llm: { model: 'openai/gpt-5-mini-2025-08-07', api_key: 'sk-fast' } })),
    ).toMatchObject({ status: 201, body: { name: 'fast', message: "Profile 'fast' saved" } });
    await call('/api/profiles/smart', json('POST', { llm: { model: 'anthropic/claude-opus-4-1-20250805' }, include_secrets: false }));
    expect((await call('/api/profiles')).body).toEqual({
      profiles: [
        {
          name: 'fast',
          model: 'openai/gpt-5-mini-2025-08-07',
          base_url: null,
          api_key_set: true,
          provider_connection_id: null,
          provider_connection_broken: false,
        },
        {
          name: 'smart',
          model: 'anthropic/claude-opus-4-1-20250805',
          base_url: null,
          api_key_set: false,
          provider_connection_id: null,
          provider_connection_broken: false,
        },
      ],
      active_profile: null,
    });
    expect(await call('/api/profiles/fast')).toMatchObject({
      status: 200,
      body: { name: 'fast', config: { model: 'openai/gpt-5-mini-2025-08-07', api_key: null }, api_key_set: true },
    });
    expect(await call('/api/profiles/fast/rename', json('POST', { new_name: 'smart' }))).toMatchObject({
      status: 409,
      body: { detail: "Profile 'smart' already exists" },
    });
    expect(await call('/api/profiles/fast/rename', json('POST', { new_name: 'quick' }))).toMatchObject({
      status: 200,
      body: { name: 'quick', message: "Profile 'fast' renamed to 'quick'" },
    });
    // profiles_router.py, ActivateProfileResponse: the name, the message and whether the LLM was applied.
    const activated = await call('/api/profiles/quick/activate', json('POST', {}));
    expect([activated.status, activated.body]).toEqual([
      200,
      { name: 'quick', message: "Profile 'quick' activated and applied to current settings", llm_applied: true },
    ]);
    expect(((await call('/api/settings')).body as { active_profile: string }).active_profile).toBe('quick');
    expect(await call('/api/profiles/quick', { method: 'DELETE' })).toMatchObject({
      status: 200,
      body: { message: "Profile 'quick' deleted" },
    });
    expect(await call('/api/profiles/quick')).toMatchObject({ status: 404, body: { detail: "Profile 'quick' not found" } });
    // A delete is idempotent: one not saved is deleted too (delete_profile).
    expect(await call('/api/profiles/quick', { method: 'DELETE' })).toEqual(
      expect.objectContaining({ status: 200, body: { name: 'quick', message: "Profile 'quick' deleted" } }),
    );
    expect((await call('/api/profiles/bad name!')).status).toBe(422);
    expect(await call('/api/profiles/x', json('POST', { include_secrets: true }))).toMatchObject({
      status: 422,
      body: { detail: [{ type: 'missing', loc: ['body', 'llm'] }] },
    });
  });

  it('validate: a model without a provider is not valid (profiles_router.py, validate_profile)', async () => {
    expect(await call('/api/profiles/x/validate', json('POST', { llm: { model: 'openai/gpt-5' } }))).toMatchObject({
      status: 200,
      body: { valid: true, error: null },
    });
    expect(await call('/api/profiles/x/validate', json('POST', { llm: { model: 'gpt-5' } }))).toMatchObject({
      status: 200,
      body: { valid: false, error: { type: 'BadRequestError' } },
    });
  });
});

describe('/api/agent-profiles (agent_profiles_router.py, list/get/save/delete/rename/activate_agent_profile)', () => {
  it('saves with an id and a revision, activates by id, renames, deletes', async () => {
    expect((await call('/api/agent-profiles/reviewer', json('POST', { llm_profile_ref: 'fast', system_prompt: 'Review' }))).status).toBe(
      201,
    );
    await call('/api/agent-profiles/reviewer', json('POST', { llm_profile_ref: 'fast', system_prompt: 'Review twice' }));
    const { body } = (await call('/api/agent-profiles')) as {
      body: { profiles: { id: string; name: string; revision: number }[]; active_agent_profile_id: null };
    };
    // A new profile is revision 0, an overwrite the next (agent_profile_store.py, save).
    expect(body.profiles).toMatchObject([{ name: 'reviewer', revision: 1, llm_profile_ref: 'fast', agent_kind: 'openhands' }]);
    const id = body.profiles[0]!.id;
    // The whole OpenHandsAgentProfile, its defaults where the save gave none (profiles/agent_profile.py).
    expect(((await call('/api/agent-profiles/reviewer')).body as { profile: Record<string, unknown> }).profile).toMatchObject({
      schema_version: 4,
      agent_kind: 'openhands',
      name: 'reviewer',
      revision: 1,
      llm_profile_ref: 'fast',
      agent: 'CodeActAgent',
      tools: null,
      disabled_skills: [],
      condenser: { condenser_kind: 'llm_summarizing', enabled: true, max_size: 240 },
      verification: { critic_enabled: false },
      tool_concurrency_limit: 1,
    });
    expect(await call(`/api/agent-profiles/${id}/activate`, json('POST', {}))).toMatchObject({
      status: 200,
      body: { id, agent_settings_applied: false },
    });
    expect(((await call('/api/settings')).body as { active_agent_profile_id: string }).active_agent_profile_id).toBe(id);
    expect(await call('/api/agent-profiles/reviewer')).toMatchObject({
      status: 200,
      body: { name: 'reviewer', profile: { system_prompt: 'Review twice', id } },
    });
    expect((await call('/api/agent-profiles/reviewer/rename', json('POST', { new_name: 'critic' }))).status).toBe(200);
    expect(await call('/api/agent-profiles/reviewer')).toMatchObject({
      status: 404,
      body: { detail: "Agent profile 'reviewer' not found" },
    });
    expect(await call('/api/agent-profiles/critic', json('POST', { agent_kind: 'robot' }))).toMatchObject({
      status: 422,
      body: { detail: 'Invalid agent profile' },
    });
    expect((await call('/api/agent-profiles/critic', { method: 'DELETE' })).status).toBe(200);
  });

  it("POST /api/conversations with a saved profile's agent_profile_id starts there (201, its LLM's model); an id no profile has is 404 (conversation_service.py, start_conversation)", async () => {
    await call('/api/agent-profiles/reviewer', json('POST', { llm: { model: 'openai/gpt-5' } }));
    const id = ((await call('/api/agent-profiles')).body as { profiles: { id: string }[] }).profiles[0]!.id;
    expect(
      await call(
        '/api/conversations',
        json('POST', { agent_profile_id: id, workspace: { kind: 'LocalWorkspace', working_dir: '/workspace/project' } }),
      ),
    ).toMatchObject({ status: 201, body: { agent: { llm: { model: 'openai/gpt-5' } } } });
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect(
      await call(
        '/api/conversations',
        json('POST', { agent_profile_id: unknown, workspace: { kind: 'LocalWorkspace', working_dir: '/workspace/project' } }),
      ),
    ).toMatchObject({ status: 404, body: { detail: `Agent profile '${unknown}' not found` } });
  });
});

describe('/api/llm/{providers,models,models/verified,provider-connections} (llm_router.py, list_providers, list_models, list_verified_models; provider_connections_router.py)', () => {
  it("list providers, all models or one provider's, the verified ones by provider, and no provider connections", async () => {
    const providers = (await call('/api/llm/providers')).body as { providers: string[] };
    expect(providers.providers).toEqual([...providers.providers].sort());
    expect(providers.providers).toContain('anthropic');
    const models = (await call('/api/llm/models?provider=anthropic')).body as { models: string[] };
    expect(models.models.length).toBeGreaterThan(0);
    expect(models.models.every((m) => m.startsWith('anthropic/'))).toBe(true);
    expect(await call('/api/llm/models/verified')).toMatchObject({
      status: 200,
      body: { models: { anthropic: expect.arrayContaining(['claude-sonnet-4-5-20250929']) } },
    });
    expect(await call('/api/llm/provider-connections')).toMatchObject({ status: 200, body: [] });
  });
});

describe('/api/skills, /api/plugins, /api/hooks, /api/tools/, /api/sub-agents (skills_router.py, plugins_router.py, hooks_router.py, tool_router.py, sub_agents_router.py)', () => {
  it('list installed skills, toggle and uninstall one, install from the marketplace (409 twice), sync, load', async () => {
    expect((await call('/api/skills/installed')).body).toMatchObject({
      skills: [
        { name: 'github', enabled: true },
        { name: 'docker', enabled: true },
      ],
    });
    expect(await call('/api/skills/installed/github', json('PATCH', { enabled: false }))).toMatchObject({
      status: 200,
      body: { name: 'github', enabled: false },
    });
    expect(await call('/api/skills/installed/docker', { method: 'DELETE' })).toMatchObject({
      status: 200,
      body: { message: "Skill 'docker' uninstalled" },
    });
    expect(await call('/api/skills/installed/docker')).toMatchObject({ status: 404 });
    expect(
      await call('/api/skills/install', json('POST', { source: 'github:OpenHands/extensions', repo_path: 'skills/kubernetes' })),
    ).toMatchObject({ status: 200, body: { name: 'kubernetes', enabled: true } });
    expect((await call('/api/skills/install', json('POST', { source: 'kubernetes' }))).status).toBe(409);
    expect(await call('/api/skills/sync', json('POST', {}))).toMatchObject({ status: 200, body: { status: 'success' } });
    const loaded = (await call('/api/skills', json('POST', {}))).body as { skills: { name: string }[]; sources: Record<string, number> };
    expect(loaded.skills.map((s) => s.name)).toContain('kubernetes');
    expect(loaded.skills.map((s) => s.name)).not.toContain('github');
    expect((await call('/api/skills/marketplace')).body).toMatchObject({
      skills: expect.arrayContaining([expect.objectContaining({ name: 'kubernetes' })]),
    });
  });

  it('plugins, hooks, tools and sub-agents answer their catalogues', async () => {
    expect(await call('/api/plugins', json('POST', {}))).toMatchObject({ status: 200, body: { plugins: [{ name: 'code-review' }] } });
    expect(await call('/api/plugins/installed')).toMatchObject({
      status: 200,
      body: { plugins: [{ name: 'code-review', enabled: true }] },
    });
    expect((await call('/api/plugins/marketplace')).status).toBe(200);
    expect(await call('/api/hooks', json('POST', {}))).toMatchObject({ status: 200, body: { hook_config: null } });
    expect(await call('/api/tools/')).toMatchObject({ status: 200, body: expect.arrayContaining(['terminal', 'file_editor']) });
    expect(await call('/api/sub-agents', json('POST', {}))).toMatchObject({
      status: 200,
      body: { agents: [{ name: 'explore', is_builtin: true }] },
    });
  });
});

describe('/api/workspaces and /api/workspaces/parents (workspaces_router.py, list_workspaces, add_workspaces, delete_workspace, add_workspace_parents, delete_workspace_parent)', () => {
  it('saves deduplicated by path, lists parents as workspaceParents, forgets by path, 404 for an unknown one', async () => {
    const item = { id: '/home/openhands/projects/todo-app', name: 'todo-app', path: '/home/openhands/projects/todo-app' };
    await call('/api/workspaces', json('POST', { workspaces: [item, item] }));
    await call(
      '/api/workspaces/parents',
      json('POST', { parents: [{ id: '/home/openhands/projects', name: 'projects', path: '/home/openhands/projects' }] }),
    );
    expect((await call('/api/workspaces')).body).toEqual({
      workspaces: [item],
      workspaceParents: [{ id: '/home/openhands/projects', name: 'projects', path: '/home/openhands/projects' }],
    });
    expect(await call(`/api/workspaces?path=${encodeURIComponent(item.path)}`, { method: 'DELETE' })).toMatchObject({
      status: 200,
      body: { deleted: true },
    });
    expect(await call(`/api/workspaces?path=${encodeURIComponent(item.path)}`, { method: 'DELETE' })).toMatchObject({
      status: 404,
      body: { detail: 'Workspace not found' },
    });
    expect((await call('/api/workspaces/parents?path=/home/openhands/projects', { method: 'DELETE' })).status).toBe(200);
    expect((await call('/api/workspaces', json('POST', { workspaces: [{ id: '', name: 'x', path: '/x' }] }))).status).toBe(422);
  });
});

describe('/api/file/{home,search_subdirs,create_directory,archive} (file_router.py, get_home_directory, search_subdirs, create_directory, archive_directory)', () => {
  it('answers the home with its directories, pages subdirectories, makes directories; 400 and 404 as the real one', async () => {
    expect((await call('/api/file/home')).body).toEqual({
      home: '/home/openhands',
      favorites: [
        { label: 'projects', path: '/home/openhands/projects' },
        { label: 'workspace', path: '/home/openhands/workspace' },
      ],
      locations: [{ label: '/', path: '/' }],
    });
    expect((await call('/api/file/home?include_hidden=true')).body).toMatchObject({
      favorites: [{ label: '.cache' }, { label: 'projects' }, { label: 'workspace' }],
    });
    expect(await call('/api/file/create_directory?path=/home/openhands/projects/zeta', { method: 'POST' })).toMatchObject({
      status: 200,
      body: { success: true },
    });
    const page = await call('/api/file/search_subdirs?path=/home/openhands/projects&limit=2');
    expect(page.body).toEqual({
      items: [
        { name: 'api-server', path: '/home/openhands/projects/api-server' },
        { name: 'todo-app', path: '/home/openhands/projects/todo-app' },
      ],
      next_page_id: 'zeta',
    });
    expect((await call('/api/file/search_subdirs?path=/home/openhands/projects&page_id=zeta')).body).toEqual({
      items: [{ name: 'zeta', path: '/home/openhands/projects/zeta' }],
      next_page_id: null,
    });
    expect(await call('/api/file/search_subdirs?path=relative')).toMatchObject({ status: 400, body: { detail: 'Path must be absolute' } });
    expect(await call('/api/file/search_subdirs?path=/nowhere')).toMatchObject({ status: 404, body: { detail: 'Directory not found' } });
    expect(await call('/api/file/create_directory?path=rel', { method: 'POST' })).toMatchObject({
      status: 400,
      body: { detail: 'Path must be absolute' },
    });
    const archive = await fetch(`${servers.agentUrl}/api/file/archive?path=/home/openhands/projects`);
    expect(archive.status).toBe(200);
    expect(new Uint8Array(await archive.arrayBuffer()).slice(0, 2)).toEqual(new Uint8Array([0x50, 0x4b]));
  });

  it('lists the folders an upload made (_upload_file: mkdir(parents=True)); the upload answers the bytes written (FileUploadResult)', async () => {
    const upload = (path: string, text: string) => {
      const form = new FormData();
      form.append('file', new Blob([text]), 'notes.md');
      return call(`/api/file/upload?path=${encodeURIComponent(path)}`, { method: 'POST', body: form });
    };
    expect(await upload('/srv/clients/alpha/notes.md', 'notes\n')).toMatchObject({ status: 200, body: { success: true, file_size: 6 } });
    expect((await upload('/srv/clients/beta/data.bin', 'xyz')).status).toBe(200);
    expect((await call('/api/file/search_subdirs?path=/srv/clients&limit=1')).body).toEqual({
      items: [{ name: 'alpha', path: '/srv/clients/alpha' }],
      next_page_id: 'beta',
    });
    expect((await call('/api/file/search_subdirs?path=/srv')).body).toEqual({
      items: [{ name: 'clients', path: '/srv/clients' }],
      next_page_id: null,
    });
  });
});

describe('GET /api/file/download-trajectory/{conversation_id} (file_router.py, download_trajectory)', () => {
  it('answers a ZIP of the conversation\'s persisted state (base_state.json) and events; 404 "Conversation not found" for an unknown one, 422 for a bad id', async () => {
    const conversation = await startConversation({ url: servers.url, agentUrl: servers.agentUrl } as never);
    const answer = await fetch(`${servers.agentUrl}/api/file/download-trajectory/${conversation.id}`);
    expect(answer.status).toBe(200);
    const text = new TextDecoder('latin1').decode(new Uint8Array(await answer.arrayBuffer()));
    expect(text.startsWith('PK')).toBe(true);
    expect(text).toContain('base_state.json');
    expect(text).toMatch(/events\/event-00000-/);
    expect(await call('/api/file/download-trajectory/00000000-0000-4000-8000-000000000000')).toMatchObject({
      status: 404,
      body: { detail: 'Conversation not found' },
    });
    expect((await call('/api/file/download-trajectory/nope')).status).toBe(422);
  });
});

describe('/api/git/commits and /api/git/commits/{sha}/changes (git_router.py, git_commits_query, git_commit_changes_query)', () => {
  it('lists commits newest first with has_more, the files one changed; an empty page outside a repository; 400 for an unknown sha', async () => {
    const { body } = (await call('/api/git/commits?path=/home/openhands/projects/todo-app&limit=2')) as {
      body: { commits: { sha: string; subject: string }[]; has_more: boolean };
    };
    expect(body.commits.map((c) => c.subject)).toEqual(['Fix the flaky test', 'Add the README']);
    expect(body.has_more).toBe(true);
    expect((await call(`/api/git/commits/${body.commits[0]!.sha}/changes?path=/home/openhands/projects/todo-app`)).body).toEqual([
      { status: 'UPDATED', path: 'test/app.test.ts' },
    ]);
    expect((await call('/api/git/commits?path=/nowhere')).body).toEqual({ commits: [], has_more: false });
    expect((await call('/api/git/commits/abcdef0/changes?path=/home/openhands/projects/todo-app')).status).toBe(400);
    expect((await call('/api/git/commits/zz/changes?path=/x')).status).toBe(422);
    expect((await call('/api/git/commits?path=/x&limit=201')).status).toBe(422);
  });
});

describe('/api/bash/* (bash_router.py, execute_bash_command, start_bash_command, search_bash_events, get_bash_event, batch_get_bash_events, clear_all_bash_events)', () => {
  it('execute answers the last BashOutput with its exit code; search, get and batch read the events; clear empties them', async () => {
    const out = (await call('/api/bash/execute_bash_command', json('POST', { command: 'echo hello' }))) as {
      status: number;
      body: { kind: string; command_id: string; stdout: string; exit_code: number; id: string };
    };
    expect(out.status).toBe(200);
    expect(out.body).toMatchObject({ kind: 'BashOutput', order: 0, stdout: 'hello\n', stderr: null, exit_code: 0 });
    expect((await call('/api/bash/execute_bash_command', json('POST', { command: 'frobnicate' }))).body).toMatchObject({
      exit_code: 127,
      stderr: 'bash: frobnicate: command not found\n',
    });
    const page = (await call(`/api/bash/bash_events/search?command_id__eq=${out.body.command_id}&kind__eq=BashOutput`)) as {
      body: { items: { id: string }[] };
    };
    expect(page.body.items.map((i) => i.id)).toEqual([out.body.id]);
    expect(await call(`/api/bash/bash_events/${out.body.command_id}`)).toMatchObject({
      status: 200,
      body: { kind: 'BashCommand', command: 'echo hello', cwd: null, timeout: 300 },
    });
    expect((await call(`/api/bash/bash_events/?event_ids=${out.body.id}&event_ids=missing`)).body).toEqual([
      expect.objectContaining({ id: out.body.id }),
      null,
    ]);
    expect(await call('/api/bash/bash_events/missing')).toMatchObject({ status: 404 });
    expect(await call('/api/bash/bash_events', { method: 'DELETE' })).toMatchObject({ status: 200, body: { cleared_count: 4 } });
    expect(await call('/api/bash/execute_bash_command', json('POST', { cwd: '/' }))).toMatchObject({
      status: 422,
      body: { detail: [{ type: 'missing', loc: ['body', 'command'] }] },
    });
  });

  it('start answers the BashCommand at once; its output lines follow, each when the clock reaches it (a manual clock)', async () => {
    const fake = await createFake({ clock: 'manual', fixture: 'empty', auth: 'none', agentUrl: 'http://agent.test' });
    const server = setupServer(...fake.handlers);
    server.listen({ onUnhandledRequest: 'error' });
    try {
      const command = (await (
        await fetch('http://agent.test/api/bash/start_bash_command', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ command: 'ls /home/openhands/projects' }),
        })
      ).json()) as { kind: string; id: string };
      expect(command.kind).toBe('BashCommand');
      const outputs = async () =>
        (
          (await (
            await fetch(`http://agent.test/api/bash/bash_events/search?kind__eq=BashOutput&command_id__eq=${command.id}`)
          ).json()) as { items: { stdout: string; order: number; exit_code: number | null }[] }
        ).items;
      expect(await outputs()).toEqual([]);
      fake.clock.advance(500);
      expect(await outputs()).toMatchObject([{ order: 0, stdout: 'api-server\n', exit_code: null }]);
      fake.clock.advance(500);
      expect(await outputs()).toMatchObject([{ order: 0 }, { order: 1, stdout: 'todo-app\n', exit_code: 0 }]);
    } finally {
      server.close();
    }
  });
});

describe('the /sockets/bash-events socket (sockets.py, bash_events_socket)', () => {
  it('sends every bash event as published, resends the history with resend_mode=all, and a frame starts a command', async () => {
    await call('/api/bash/execute_bash_command', json('POST', { command: 'echo before' }));
    const ws = new WebSocket(`${servers.agentUrl.replace('http', 'ws')}/sockets/bash-events?resend_mode=all`);
    const frames: { kind: string; stdout?: string; exit_code?: number | null }[] = [];
    ws.on('message', (data) => frames.push(JSON.parse(String(data))));
    await new Promise((resolve) => ws.on('open', resolve));
    const until = async (n: number) => {
      for (let i = 0; i < 500 && frames.length < n; i++) await new Promise((r) => setTimeout(r, 10));
      return frames;
    };
    expect((await until(2)).slice(0, 2)).toMatchObject([{ kind: 'BashCommand' }, { kind: 'BashOutput', stdout: 'before\n' }]);
    ws.send(JSON.stringify({ command: 'echo from-socket' }));
    expect((await until(4)).slice(2, 4)).toMatchObject([
      { kind: 'BashCommand' },
      { kind: 'BashOutput', stdout: 'from-socket\n', exit_code: 0 },
    ]);
    ws.send('{"nope": 1}');
    expect((await until(5))[4]).toMatchObject({ kind: 'BashError', code: 'ValidationError' });
    ws.close();
  });

  it("with session keys: 4001 for a wrong key, events for a RUNNING sandbox's key in the first auth frame", async () => {
    const bad = new WebSocket(`${keyed.agentUrl.replace('http', 'ws')}/sockets/bash-events?session_api_key=wrong`);
    const code = await new Promise<number>((resolve) => bad.on('close', (c) => resolve(c)));
    expect(code).toBe(4001);
    const res = await fetch(`${keyed.url}/api/v1/sandboxes`, {
      method: 'POST',
      headers: { 'x-session-api-key': 'app-key', 'content-type': 'application/json' },
      body: '{}',
    });
    let sandbox = (await res.json()) as { id: string; session_api_key: string | null };
    for (let i = 0; i < 200 && sandbox.session_api_key === null; i++) {
      await new Promise((r) => setTimeout(r, 25));
      [sandbox] = (await (
        await fetch(`${keyed.url}/api/v1/sandboxes?id=${sandbox.id}`, { headers: { 'x-session-api-key': 'app-key' } })
      ).json()) as [typeof sandbox];
    }
    const ws = new WebSocket(`${keyed.agentUrl.replace('http', 'ws')}/sockets/bash-events`);
    const frames: { kind: string }[] = [];
    ws.on('message', (data) => frames.push(JSON.parse(String(data))));
    await new Promise((resolve) => ws.on('open', resolve));
    ws.send(JSON.stringify({ type: 'auth', session_api_key: sandbox.session_api_key }));
    const key = sandbox.session_api_key!;
    for (let i = 0; i < 200; i++) {
      await call('/api/bash/execute_bash_command', { ...json('POST', { command: 'true' }), on: keyed, key });
      if (frames.length > 0) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(frames[0]).toMatchObject({ kind: 'BashCommand', command: 'true' });
    ws.close();
  });
});

describe('POST /api/auth/workspace-session (auth_router.py, create_workspace_session)', () => {
  it('answers 204 and sets the HttpOnly workspace cookie on /api/conversations, never the key itself', async () => {
    const answer = await call('/api/auth/workspace-session', { method: 'POST', key: 'my-session-key' });
    expect(answer.status).toBe(204);
    const cookie = answer.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^oh_workspace_session_key=[0-9a-f]{32}; HttpOnly; .*Path=\/api\/conversations; SameSite=none/);
    expect(cookie).not.toContain('my-session-key');
  });
});

describe('GET /api/init and GET /server_info (init_router.py, get_init_status; server_details_router.py, get_server_info)', () => {
  it('the server is ready, and reports a version Agent Canvas accepts (>= 1.28.0)', async () => {
    expect(await call('/api/init', { on: keyed })).toMatchObject({ status: 200, body: { state: 'ready' } });
    const info = (await call('/server_info')).body as { version: string };
    const [major, minor] = info.version.split('.').map(Number);
    expect(major! > 1 || (major === 1 && minor! >= 28)).toBe(true);
  });
});

describe('bounds of the host-wide state (what a client cannot grow without limit)', () => {
  it('answers 507 past 10,000 saved workspaces and keeps the 10,000', async () => {
    const batch = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) => ({ id: `/w/${from + i}`, name: `w${from + i}`, path: `/w/${from + i}` }));
    for (let from = 0; from < 10_000; from += 400)
      expect((await call('/api/workspaces', json('POST', { workspaces: batch(from, 400) }))).status).toBe(200);
    expect(await call('/api/workspaces', json('POST', { workspaces: batch(10_000, 1) }))).toMatchObject({
      status: 507,
      body: { detail: expect.stringContaining('at most 10000 workspaces') },
    });
    expect(((await call('/api/workspaces')).body as { workspaces: unknown[] }).workspaces).toHaveLength(10_000);
  });
});
