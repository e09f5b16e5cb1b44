/**
 * What the app server says about itself: `/alive`, `/health`, `/server_info` copy openhands
 * `server/routes/health.py`; `/api/options/*` copy `server/routes/public.py` (get_litellm_models,
 * get_agents, get_security_analyzers, get_config: `ServerConfig.get_config()` of an OSS install);
 * the newest `/api/v1/web-client/config`, `/api/v1/config/models|providers/search` and
 * `/api/v1/skills/search` copy `app-server.openapi.json` (`WebClientConfig`, `LLMModelPage`,
 * `ProviderPage`, `SkillPage`).
 */
import { describe, expect, it } from 'vitest';
import { call, useFake } from '../support/api.js';

useFake({ fixture: 'empty' });

describe('GET /alive, /health, /server_info', () => {
  it('answer without a key: {"status": "ok"}, "OK", and the uptime', async () => {
    expect(await call('GET', '/alive', { key: null })).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(await call('GET', '/health', { key: null })).toMatchObject({ status: 200, body: 'OK' });
    expect(await call('GET', '/server_info', { key: null })).toMatchObject({ status: 200, body: { uptime: expect.any(Number) } });
  });
});

describe('GET /api/options/*', () => {
  it('list the models, agents and security analyzers, sorted', async () => {
    const models = (await call<string[]>('GET', '/api/options/models')).body;
    expect(models).toContain('anthropic/claude-sonnet-4-5-20250929');
    expect(models).toEqual([...models].sort());
    expect(await call('GET', '/api/options/agents')).toMatchObject({
      status: 200,
      body: ['BrowsingAgent', 'CodeActAgent', 'LocAgent', 'ReadOnlyAgent', 'VisualBrowsingAgent'],
    });
    expect(await call('GET', '/api/options/security-analyzers')).toMatchObject({ status: 200, body: ['grayswan', 'invariant', 'llm'] });
  });

  it("GET /api/options/config is an OSS install's config, with no analytics key", async () => {
    expect(await call('GET', '/api/options/config')).toEqual(
      expect.objectContaining({
        status: 200,
        body: {
          APP_MODE: 'oss',
          GITHUB_CLIENT_ID: '',
          POSTHOG_CLIENT_KEY: '',
          FEATURE_FLAGS: { ENABLE_BILLING: false, HIDE_LLM_SETTINGS: false },
        },
      }),
    );
  });

  it('need the key under the legacy policy, as every legacy route', async () => {
    expect(await call('GET', '/api/options/config', { key: null })).toMatchObject({ status: 401, body: { detail: 'Unauthorized' } });
  });
});

describe('GET /api/v1/web-client/config', () => {
  it("is an OSS install's WebClientConfig", async () => {
    expect(await call('GET', '/api/v1/web-client/config', { key: null })).toMatchObject({
      status: 200,
      body: {
        kind: 'WebClientConfig',
        app_mode: 'oss',
        posthog_client_key: null,
        providers_configured: [],
        feature_flags: { enable_billing: false, hide_llm_settings: false },
      },
    });
  });
});

describe('GET /api/v1/config/models/search, /providers/search, /api/v1/skills/search', () => {
  it('page and filter the models by query, provider and verification; the providers; the global skills', async () => {
    const verified = await call<{ items: { provider: string; name: string; verified: boolean }[]; next_page_id: string | null }>(
      'GET',
      '/api/v1/config/models/search?verified__eq=true&provider__eq=anthropic',
    );
    expect(verified.body.items.map((m) => `${m.provider}/${m.name}`)).toEqual([
      'anthropic/claude-opus-4-1-20250805',
      'anthropic/claude-sonnet-4-5-20250929',
    ]);
    const page = await call<{ items: unknown[]; next_page_id: string }>('GET', '/api/v1/config/models/search?limit=5');
    expect(page.body.items).toHaveLength(5);
    expect(page.body.next_page_id).toBe('5');
    expect(
      (await call<{ items: { name: string }[] }>('GET', '/api/v1/config/providers/search?query=open')).body.items.map((p) => p.name),
    ).toEqual(['openai', 'openhands', 'openrouter']);
    expect((await call<{ items: { name: string; source: string }[] }>('GET', '/api/v1/skills/search?limit=2')).body.items).toEqual([
      { name: 'github', type: 'knowledge', source: 'global', triggers: ['github', 'git'] },
      { name: 'gitlab', type: 'knowledge', source: 'global', triggers: ['gitlab', 'git'] },
    ]);
    expect(await call('GET', '/api/v1/config/models/search?limit=0')).toMatchObject({
      status: 422,
      body: { detail: [{ type: 'greater_than', loc: ['query', 'limit'] }] },
    });
  });
});
