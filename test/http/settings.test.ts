/**
 * The user's settings, both generations over one record: legacy `/api/settings` copies openhands
 * `server/routes/settings.py` (load_settings, store_settings, store_llm_settings, reset_settings)
 * and `storage/data_models/settings.py` (`Settings`: condenser_max_size at least 20); the newest
 * `/api/v1/settings` and its profiles copy `app-server.openapi.json` (`GETSettingsModel`,
 * `SaveProfileRequest` with its `StrictLLM`, `RenameProfileRequest`, `ProfileListResponse`) and openhands
 * `app_server/settings/settings_router.py` (store_settings, save_profile, get_profile) with
 * `settings_models.py` (Settings.update).
 */
import { describe, expect, it } from 'vitest';
import { unmaskedMcp } from '../../src/domain/user/settings.js';
import { call, useFake } from '../support/api.js';

const env = useFake({ fixture: 'empty' });
const LLM_KEY = 'sk-fakehands-settings-test-0123456789';

describe('GET /api/settings', () => {
  it('answers 404 {"error": "Settings not found"} before the first save', async () => {
    expect(await call('GET', '/api/settings')).toMatchObject({ status: 404, body: { error: 'Settings not found' } });
  });

  it('reads back what was saved, with secrets as *_set flags and never their values, and the providers with a token', async () => {
    await call('POST', '/api/add-git-providers', { body: { provider_tokens: { github: { token: 'ghp_x', host: 'github.com' } } } });
    expect(
      await call('POST', '/api/settings', {
        body: { llm_model: 'openai/gpt-5-2025-08-07', llm_api_key: LLM_KEY, language: 'fr', confirmation_mode: true },
      }),
    ).toMatchObject({ status: 200, body: { message: 'Settings stored' } });
    const { status, body } = await call<Record<string, unknown>>('GET', '/api/settings');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      llm_model: 'openai/gpt-5-2025-08-07',
      language: 'fr',
      confirmation_mode: true,
      llm_api_key: null,
      search_api_key: null,
      llm_api_key_set: true,
      search_api_key_set: false,
      provider_tokens_set: { github: 'github.com' },
      secrets_store: { provider_tokens: {} },
      enable_default_condenser: true,
      enable_solvability_analysis: true,
    });
    expect(JSON.stringify(body)).not.toContain(LLM_KEY);
  });
});

describe('POST /api/settings', () => {
  it('keeps the stored LLM key, model and base URL when a save leaves them null (store_llm_settings)', async () => {
    await call('POST', '/api/settings', {
      body: { llm_model: 'anthropic/claude-sonnet-4-5-20250929', llm_api_key: LLM_KEY, llm_base_url: 'https://llm.example.com' },
    });
    await call('POST', '/api/settings', { body: { language: 'de', llm_api_key: null, llm_model: null } });
    const { body } = await call<Record<string, unknown>>('GET', '/api/settings');
    expect(body).toMatchObject({
      language: 'de',
      llm_model: 'anthropic/claude-sonnet-4-5-20250929',
      llm_base_url: 'https://llm.example.com',
      llm_api_key_set: true,
    });
  });

  it('replaces the other fields: a field left out is back to its default (convert_to_settings)', async () => {
    await call('POST', '/api/settings', { body: { language: 'fr', max_iterations: 50, git_user_name: 'dev' } });
    await call('POST', '/api/settings', { body: { language: 'es' } });
    expect((await call<Record<string, unknown>>('GET', '/api/settings')).body).toMatchObject({
      language: 'es',
      max_iterations: null,
      git_user_name: null,
    });
  });

  it("answers 422 for condenser_max_size under 20 and for wrong types (in the model's field order), and changes nothing", async () => {
    await call('POST', '/api/settings', { body: { language: 'fr' } });
    const before = (await call('GET', '/api/settings')).body;
    expect(await call('POST', '/api/settings', { body: { condenser_max_size: 10 } })).toMatchObject({
      status: 422,
      body: {
        detail: [
          {
            type: 'value_error',
            loc: ['body', 'condenser_max_size'],
            msg: 'Value error, condenser_max_size must be at least 20',
            input: 10,
          },
        ],
      },
    });
    expect(await call('POST', '/api/settings', { body: { confirmation_mode: 'sometimes', max_iterations: 'many' } })).toMatchObject({
      status: 422,
      body: {
        detail: [
          { type: 'int_parsing', loc: ['body', 'max_iterations'] },
          { type: 'bool_parsing', loc: ['body', 'confirmation_mode'] },
        ],
      },
    });
    expect((await call('GET', '/api/settings')).body).toEqual(before);
  });
});

describe('provider tokens saved three ways', () => {
  it('show everywhere, whether saved by /api/add-git-providers, /api/v1/secrets/git-providers or a legacy secrets_store in /api/settings', async () => {
    await call('POST', '/api/settings', {
      body: { language: 'en', secrets_store: { provider_tokens: { github: { token: 'ghp_from_settings', host: 'github.com' } } } },
    });
    expect((await call('GET', '/api/settings')).body).toMatchObject({ provider_tokens_set: { github: 'github.com' } });
    await call('POST', '/api/v1/secrets/git-providers', {
      body: { provider_tokens: { github: { token: '' }, gitlab: { token: 'glpat-v1', host: 'gitlab.com' } } },
    });
    expect((await call('GET', '/api/v1/settings')).body).toMatchObject({ provider_tokens_set: { github: null, gitlab: 'gitlab.com' } });
    expect(env.fake.service.providerTokens().github?.token).toBe('ghp_from_settings');
    expect((await call<string[]>('GET', '/api/user/installations?provider=github')).status).toBe(200);
    expect(
      await call('POST', '/api/settings', { body: { secrets_store: { provider_tokens: { sourceforge: { token: 'x' } } } } }),
    ).toMatchObject({
      status: 422,
      body: { detail: [{ type: 'enum', loc: ['body', 'secrets_store', 'provider_tokens', 'sourceforge', '[key]'] }] },
    });
  });
});

describe('MCP servers in the settings', () => {
  it('answer their keys and environments masked, and a round trip of the masked answer keeps the stored secrets', async () => {
    const KEY = 'mcp-key-fakehands-0123456789';
    await call('POST', '/api/settings', {
      body: {
        mcp_config: {
          sse_servers: [{ url: 'https://mcp.example.com/sse', api_key: KEY }],
          stdio_servers: [{ name: 'fs', command: 'npx', args: [], env: { GITHUB_TOKEN: KEY } }],
        },
      },
    });
    const first = await call<{ mcp_config: { sse_servers: { api_key: string }[]; stdio_servers: { env: Record<string, string> }[] } }>(
      'GET',
      '/api/settings',
    );
    expect(first.body.mcp_config.sse_servers[0]!.api_key).toBe('**********');
    expect(first.body.mcp_config.stdio_servers[0]!.env.GITHUB_TOKEN).toBe('**********');
    expect(JSON.stringify((await call('GET', '/api/v1/settings')).body)).not.toContain(KEY);
    // The web app saves back what it read (the masks): the stored keys stay.
    await call('POST', '/api/settings', { body: { language: 'fr', mcp_config: first.body.mcp_config } });
    const snapshot = await env.fake.snapshot();
    expect(snapshot.settings?.mcp_config?.sse_servers[0]?.api_key).toBe('**********');
    const stored = (await call<{ mcp_config: unknown }>('GET', '/api/settings')).body.mcp_config;
    expect(stored).toEqual(first.body.mcp_config);
    // What the save stores: the stored key where the mask came back, a new key where one was given.
    const stored0 = {
      sse_servers: [{ url: 'https://mcp.example.com/sse', api_key: KEY }],
      shttp_servers: [],
      stdio_servers: [{ name: 'fs', command: 'npx', args: [], env: { GITHUB_TOKEN: KEY } }],
    };
    expect(unmaskedMcp(first.body.mcp_config as never, stored0 as never)).toMatchObject({
      sse_servers: [{ api_key: KEY }],
      stdio_servers: [{ env: { GITHUB_TOKEN: KEY } }],
    });
    expect(
      unmaskedMcp(
        { sse_servers: [{ url: 'https://mcp.example.com/sse', api_key: 'new' }], shttp_servers: [], stdio_servers: [] },
        stored0 as never,
      ),
    ).toMatchObject({ sse_servers: [{ api_key: 'new' }] });
    // A new key replaces the stored one.
    await call('POST', '/api/settings', {
      body: { mcp_config: { sse_servers: [{ url: 'https://mcp.example.com/sse', api_key: 'another' }] } },
    });
    expect(JSON.stringify((await call('GET', '/api/settings')).body)).not.toContain('another');
  });
});

describe('POST /api/reset-settings', () => {
  it('answers 410 {"error": "Reset settings functionality has been removed."} and keeps the settings', async () => {
    await call('POST', '/api/settings', { body: { language: 'fr' } });
    expect(await call('POST', '/api/reset-settings')).toMatchObject({
      status: 410,
      body: { error: 'Reset settings functionality has been removed.' },
    });
    expect((await call<{ language: string }>('GET', '/api/settings')).body.language).toBe('fr');
  });
});

describe('GET /api/v1/settings', () => {
  it('answers 404 before the first save, then the newest shape, V1 on by default; the LLM in agent_settings.llm without its key', async () => {
    expect(await call('GET', '/api/v1/settings')).toMatchObject({ status: 404, body: { error: 'Settings not found' } });
    await call('POST', '/api/settings', { body: { language: 'en' } });
    const { status, body } = await call<Record<string, unknown>>('GET', '/api/v1/settings');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      v1_enabled: true,
      llm_api_key_set: false,
      conversation_settings: { max_iterations: 500, confirmation_mode: false, security_analyzer: 'llm' },
    });
    await call('POST', '/api/settings', { body: { llm_model: 'openai/gpt-5-2025-08-07', llm_api_key: LLM_KEY, max_iterations: 80 } });
    const after = (await call<Record<string, unknown>>('GET', '/api/v1/settings')).body;
    expect(after).toMatchObject({
      agent_settings: { llm: { model: 'openai/gpt-5-2025-08-07', api_key: null } },
      conversation_settings: { max_iterations: 80 },
      llm_api_key_set: true,
    });
    expect(JSON.stringify(after)).not.toContain(LLM_KEY);
  });
});

describe('POST /api/v1/settings', () => {
  it('changes only the fields given; the legacy GET reads the same record', async () => {
    await call('POST', '/api/settings', { body: { language: 'fr', llm_model: 'a/b' } });
    expect(
      await call('POST', '/api/v1/settings', {
        body: {
          agent_settings_diff: { llm: { model: 'openai/gpt-5-mini-2025-08-07', api_key: LLM_KEY } },
          conversation_settings_diff: { confirmation_mode: true },
          v1_enabled: false,
        },
      }),
    ).toMatchObject({ status: 200, body: { message: 'Settings stored' } });
    expect((await call('GET', '/api/settings')).body).toMatchObject({
      language: 'fr',
      llm_model: 'openai/gpt-5-mini-2025-08-07',
      confirmation_mode: true,
      llm_api_key_set: true,
    });
    expect((await call('GET', '/api/v1/settings')).body).toMatchObject({ v1_enabled: false });
  });

  // settings_router.py, store_settings: the legacy nested keys are checked before anything is read.
  it('refuses the older nested agent_settings and conversation_settings with 422 {"error", "keys"} and changes nothing', async () => {
    await call('POST', '/api/settings', { body: { language: 'fr' } });
    const before = (await call('GET', '/api/v1/settings')).body;
    expect(
      await call('POST', '/api/v1/settings', {
        body: { conversation_settings: { confirmation_mode: true }, agent_settings: { llm: { model: 'x/y' } }, language: 'de' },
      }),
    ).toEqual({
      status: 422,
      body: { error: 'Use *_diff nested settings payloads instead of legacy keys', keys: ['agent_settings', 'conversation_settings'] },
      headers: expect.anything(),
    });
    expect(await call('POST', '/api/v1/settings', { body: { agent_settings: null } })).toMatchObject({
      status: 422,
      body: { keys: ['agent_settings'] },
    });
    expect((await call('GET', '/api/v1/settings')).body).toEqual(before);
  });

  // settings_models.py, Settings.update: a key that names no field is skipped; the fake checks the type of those it reads.
  it('ignores a key that names no settings field (200); a wrong type answers 422 and changes nothing', async () => {
    await call('POST', '/api/settings', { body: { language: 'fr' } });
    const before = (await call('GET', '/api/v1/settings')).body;
    expect(await call('POST', '/api/v1/settings', { body: { llm_modle: 'x', enabled_skills: ['a'] } })).toMatchObject({
      status: 200,
      body: { message: 'Settings stored' },
    });
    expect((await call('GET', '/api/v1/settings')).body).toEqual(before);
    expect(await call('POST', '/api/v1/settings', { body: { language: 5, email: 'a@b.c' } })).toMatchObject({
      status: 422,
      body: { detail: [{ type: 'string_type', loc: ['body', 'language'] }] },
    });
    expect((await call('GET', '/api/v1/settings')).body).toEqual(before);
  });

  it('a null analytics consent or skill list keeps the stored one; an empty search key clears it', async () => {
    await call('POST', '/api/v1/settings', {
      body: { user_consents_to_analytics: true, disabled_skills: ['github'], search_api_key: 'tvly-fakehands-0123456789' },
    });
    expect((await call('GET', '/api/v1/settings')).body).toMatchObject({ search_api_key_set: true, search_api_key: null });
    await call('POST', '/api/v1/settings', { body: { user_consents_to_analytics: null, disabled_skills: null, search_api_key: '' } });
    expect((await call('GET', '/api/v1/settings')).body).toMatchObject({
      user_consents_to_analytics: true,
      disabled_skills: ['github'],
      search_api_key_set: false,
    });
  });

  // Settings.update: `mcp_config` is popped from the agent diff and set whole after the deep merge.
  it('an mcp_config in agent_settings_diff replaces the stored one whole; the rest of the diff is deep-merged', async () => {
    await call('POST', '/api/v1/settings', {
      body: { agent_settings_diff: { mcp_config: { docs: { url: 'https://docs.example.com/mcp' }, search: { command: 'npx' } } } },
    });
    expect(
      await call('POST', '/api/v1/settings', {
        body: { agent_settings_diff: { mcp_config: { tools: { url: 'https://tools.example.com/mcp' } }, condenser: { max_size: 90 } } },
      }),
    ).toMatchObject({ status: 200 });
    const stored = (await env.fake.snapshot()).settings!;
    expect(stored.agent_settings_extra.mcp_config).toEqual({ tools: { url: 'https://tools.example.com/mcp' } });
    expect(stored.condenser_max_size).toBe(90);
    await call('POST', '/api/v1/settings', { body: { agent_settings_diff: { mcp_config: null } } });
    expect((await env.fake.snapshot()).settings!.agent_settings_extra.mcp_config).toEqual({});
  });
});

describe('/api/v1/settings/profiles', () => {
  it('saves, lists, activates, renames and deletes LLM profiles; a key is stored and never answered', async () => {
    expect(
      await call('POST', '/api/v1/settings/profiles/fast', { body: { llm: { model: 'openai/gpt-5-mini-2025-08-07', api_key: LLM_KEY } } }),
    ).toMatchObject({ status: 201, body: { name: 'fast', message: "Profile 'fast' saved" } });
    expect(await call('GET', '/api/v1/settings/profiles')).toMatchObject({
      status: 200,
      body: {
        profiles: [{ name: 'fast', model: 'openai/gpt-5-mini-2025-08-07', base_url: null, api_key_set: true }],
        active_profile: null,
      },
    });
    const detail = await call('GET', '/api/v1/settings/profiles/fast');
    expect(detail).toMatchObject({
      status: 200,
      body: { name: 'fast', config: { model: 'openai/gpt-5-mini-2025-08-07', api_key: null }, api_key_set: true },
    });
    expect(JSON.stringify(detail.body)).not.toContain(LLM_KEY);
    expect(await call('POST', '/api/v1/settings/profiles/fast/activate')).toMatchObject({
      status: 200,
      body: { name: 'fast', model: 'openai/gpt-5-mini-2025-08-07' },
    });
    expect((await call('GET', '/api/v1/settings')).body).toMatchObject({
      agent_settings: { llm: { model: 'openai/gpt-5-mini-2025-08-07' } },
      llm_api_key_set: true,
      llm_profiles: { active: 'fast' },
    });
    expect(await call('POST', '/api/v1/settings/profiles/fast/rename', { body: { new_name: 'quick' } })).toMatchObject({
      status: 200,
      body: { name: 'quick' },
    });
    expect((await call<{ active_profile: string }>('GET', '/api/v1/settings/profiles')).body.active_profile).toBe('quick');
    expect(await call('DELETE', '/api/v1/settings/profiles/quick')).toMatchObject({ status: 200, body: { name: 'quick' } });
    expect(await call('GET', '/api/v1/settings/profiles/quick')).toMatchObject({
      status: 404,
      body: { detail: "Profile 'quick' not found" },
    });
  });

  it('answers 422 for a bad name or an unknown LLM key, 409 for a rename onto a taken name, and changes nothing', async () => {
    await call('POST', '/api/v1/settings/profiles/a', { body: { llm: { model: 'x/y' } } });
    await call('POST', '/api/v1/settings/profiles/b', { body: { llm: { model: 'x/z' } } });
    const before = (await call('GET', '/api/v1/settings/profiles')).body;
    expect(await call('POST', '/api/v1/settings/profiles/bad%20name', { body: {} })).toMatchObject({
      status: 422,
      body: { detail: [{ loc: ['path', 'name'] }] },
    });
    expect(await call('POST', '/api/v1/settings/profiles/c', { body: { llm: { model: 'x/y', custom_header: 'x' } } })).toMatchObject({
      status: 422,
      body: { detail: [{ type: 'extra_forbidden', loc: ['body', 'llm', 'custom_header'] }] },
    });
    expect(await call('POST', '/api/v1/settings/profiles/a/rename', { body: { new_name: 'b' } })).toMatchObject({
      status: 409,
      body: { detail: "Profile 'b' already exists" },
    });
    expect((await call('GET', '/api/v1/settings/profiles')).body).toEqual(before);
  });
});

describe('POST /api/v1/settings/profiles/{name}', () => {
  // settings_router.py, SaveProfileRequest: `llm` is a StrictLLM (every LLM option, unknown keys forbidden).
  it('saves every StrictLLM option and answers them in the config; the key null, the other credentials masked', async () => {
    const llm = {
      model: 'bedrock/anthropic.claude-sonnet-4-5',
      api_key: LLM_KEY,
      aws_access_key_id: 'AKIAFAKEHANDS0123456',
      aws_secret_access_key: 'fakehands-aws-secret-0123456789',
      aws_region_name: 'eu-west-1',
      temperature: 0.2,
      top_p: 1,
      reasoning_effort: 'medium',
      api_mode: 'responses',
      extra_headers: { 'X-Team': 'core' },
      fallback_strategy: { fallback_llms: ['fast'] },
      num_retries: 2,
    };
    expect(await call('POST', '/api/v1/settings/profiles/bedrock', { body: { llm } })).toMatchObject({ status: 201 });
    const detail = await call<{ config: Record<string, unknown>; api_key_set: boolean }>('GET', '/api/v1/settings/profiles/bedrock');
    expect(detail.body).toEqual({
      name: 'bedrock',
      api_key_set: true,
      config: {
        ...llm,
        base_url: null,
        api_key: null,
        aws_access_key_id: '**********',
        aws_secret_access_key: '**********',
      },
    });
    expect(JSON.stringify((await env.fake.snapshot()).settings)).not.toContain('fakehands-aws-secret');
  });

  it('answers 422 for an option of the wrong type or out of its bounds, and changes nothing', async () => {
    for (const [llm, type, field] of [
      [{ temperature: -1 }, 'greater_than_equal', 'temperature'],
      [{ top_p: 2 }, 'less_than_equal', 'top_p'],
      [{ num_retries: 1.5 }, 'int_from_float', 'num_retries'],
      [{ fallback_strategy: {} }, 'missing', 'fallback_strategy'],
    ] as const) {
      expect(await call('POST', '/api/v1/settings/profiles/bad', { body: { llm } })).toMatchObject({
        status: 422,
        body: { detail: [{ type, loc: expect.arrayContaining(['body', 'llm', field]) }] },
      });
    }
    expect((await call('GET', '/api/v1/settings/profiles')).body).toEqual({ profiles: [], active_profile: null });
  });

  it("without a model saves StrictLLM's default; a null or absent body saves the current LLM", async () => {
    await call('POST', '/api/settings', { body: { llm_model: 'openai/gpt-5-2025-08-07', llm_api_key: LLM_KEY } });
    await call('POST', '/api/v1/settings/profiles/plain', { body: { llm: { temperature: 0 } } });
    await call('POST', '/api/v1/settings/profiles/current', { body: 'null' });
    await call('POST', '/api/v1/settings/profiles/empty');
    expect((await call('GET', '/api/v1/settings/profiles')).body).toEqual({
      profiles: [
        { name: 'current', model: 'openai/gpt-5-2025-08-07', base_url: null, api_key_set: true },
        { name: 'empty', model: 'openai/gpt-5-2025-08-07', base_url: null, api_key_set: true },
        { name: 'plain', model: 'gpt-5.5', base_url: null, api_key_set: false },
      ],
      active_profile: null,
    });
  });

  // save_profile: "Preserve the existing api_key when the caller omits it on update".
  it('an LLM saved again without a key keeps the stored key of that profile', async () => {
    await call('POST', '/api/v1/settings/profiles/fast', { body: { llm: { model: 'openai/gpt-5-mini-2025-08-07', api_key: LLM_KEY } } });
    await call('POST', '/api/v1/settings/profiles/fast', { body: { llm: { model: 'openai/gpt-5-2025-08-07', api_key: null } } });
    expect((await call('GET', '/api/v1/settings/profiles/fast')).body).toMatchObject({
      config: { model: 'openai/gpt-5-2025-08-07', api_key: null },
      api_key_set: true,
    });
  });
});

describe('settings in the fixture and the snapshot', () => {
  it('a snapshot keeps the settings with their secrets redacted', async () => {
    await call('POST', '/api/settings', { body: { llm_api_key: LLM_KEY, language: 'fr' } });
    const snapshot = await env.fake.snapshot();
    expect(snapshot.settings).toMatchObject({ language: 'fr', llm_api_key: '**********' });
    expect(JSON.stringify(snapshot)).not.toContain(LLM_KEY);
  });
});
