import { describe, expect, it } from 'vitest';
import { apiRoutes as routes } from '../../src/surfaces/app-server/routes/all.js';
import { call, useFake } from '../support/api.js';

const env = useFake({ fixture: 'empty' });

const GITHUB_TOKEN = 'ghp_fakehandsTestToken0123456789abcdef';
const GITLAB_TOKEN = 'glpat-fakehandsTestToken0123';

describe('POST /api/add-git-providers', () => {
  it('stores provider tokens and answers {"message": "Git providers stored"}', async () => {
    const { status, body } = await call('POST', '/api/add-git-providers', {
      body: { provider_tokens: { github: { token: GITHUB_TOKEN, host: 'github.com' } } },
    });
    expect([status, body]).toEqual([200, { message: 'Git providers stored' }]);
    expect(env.fake.service.providerTokens()).toEqual({ github: { token: GITHUB_TOKEN, host: 'github.com', user_id: null } });
  });

  it('keeps the stored token but takes the new host when a provider is sent with an empty token', async () => {
    await call('POST', '/api/add-git-providers', { body: { provider_tokens: { github: { token: GITHUB_TOKEN, host: 'github.com' } } } });
    await call('POST', '/api/add-git-providers', { body: { provider_tokens: { github: { token: '', host: 'github.example.com' } } } });
    expect(env.fake.service.providerTokens().github).toEqual({ token: GITHUB_TOKEN, host: 'github.example.com', user_id: null });
  });

  it('replaces a token sent anew, and drops providers left out of a non-empty update, as the real server does', async () => {
    await call('POST', '/api/add-git-providers', {
      body: { provider_tokens: { github: { token: GITHUB_TOKEN }, gitlab: { token: GITLAB_TOKEN } } },
    });
    await call('POST', '/api/add-git-providers', { body: { provider_tokens: { gitlab: { token: 'glpat-new' } } } });
    expect(env.fake.service.providerTokens()).toEqual({ gitlab: { token: 'glpat-new', host: null, user_id: null } });
  });

  it('keeps stored tokens when provider_tokens is empty, and stores the MCP config', async () => {
    await call('POST', '/api/add-git-providers', { body: { provider_tokens: { github: { token: GITHUB_TOKEN } } } });
    await call('POST', '/api/add-git-providers', { body: { mcp_config: { sse_servers: ['https://mcp.example.com/sse'] } } });
    expect(env.fake.service.providerTokens().github?.token).toBe(GITHUB_TOKEN);
    expect((await env.fake.snapshot()).mcp_config).toEqual({
      sse_servers: [{ url: 'https://mcp.example.com/sse', api_key: null }],
      stdio_servers: [],
      shttp_servers: [],
    });
  });

  it('rejects a provider that is not a ProviderType with 422 enum at [..., key, "[key]"], storing nothing', async () => {
    const { status, body } = await call('POST', '/api/add-git-providers', {
      body: { provider_tokens: { github: { token: GITHUB_TOKEN }, sourcehut: { token: 'x' } } },
    });
    expect(status).toBe(422);
    expect(body).toEqual({
      detail: [
        {
          type: 'enum',
          loc: ['body', 'provider_tokens', 'sourcehut', '[key]'],
          msg: "Input should be 'github', 'gitlab', 'bitbucket', 'bitbucket_data_center', 'forgejo', 'azure_devops' or 'enterprise_sso'",
          input: 'sourcehut',
          ctx: { expected: "'github', 'gitlab', 'bitbucket', 'bitbucket_data_center', 'forgejo', 'azure_devops' or 'enterprise_sso'" },
        },
      ],
    });
    expect(env.fake.service.providerTokens()).toEqual({});
  });

  it('rejects a token that is not a string', async () => {
    const { body } = await call<{ detail: { type: string; loc: unknown[] }[] }>('POST', '/api/add-git-providers', {
      body: { provider_tokens: { github: { token: 42 } } },
    });
    expect(body.detail.map((e) => [e.type, e.loc])).toEqual([['string_type', ['body', 'provider_tokens', 'github', 'token']]]);
  });

  it('ignores unknown body fields, as the real POSTProviderModel does (no extra_forbidden here)', async () => {
    const { status, body } = await call('POST', '/api/add-git-providers', {
      body: { provider_tokens: { github: { token: GITHUB_TOKEN } }, secrets: {}, theme: 'dark' },
    });
    expect([status, body]).toEqual([200, { message: 'Git providers stored' }]);
    expect(env.fake.service.providerTokens().github?.token).toBe(GITHUB_TOKEN);
  });

  it('never echoes a token or key sent in the wrong shape in a 422 input', async () => {
    const asString = await call('POST', '/api/add-git-providers', { body: { provider_tokens: { github: GITHUB_TOKEN } } });
    expect(asString.body).toEqual({
      detail: [
        {
          type: 'model_attributes_type',
          loc: ['body', 'provider_tokens', 'github'],
          msg: 'Input should be a valid dictionary or object to extract fields from',
          input: '**********',
        },
      ],
    });
    const mcp = await call('POST', '/api/add-git-providers', { body: { mcp_config: { sse_servers: [{ api_key: 'sk-secret' }] } } });
    expect(mcp.body).toEqual({
      detail: [
        { type: 'missing', loc: ['body', 'mcp_config', 'sse_servers', 0, 'url'], msg: 'Field required', input: { api_key: '**********' } },
      ],
    });
  });

  it('keeps MCP server keys and environment values out of snapshots', async () => {
    await call('POST', '/api/add-git-providers', {
      body: {
        mcp_config: {
          shttp_servers: [{ url: 'https://mcp.example.com', api_key: 'sk-secret' }],
          stdio_servers: [{ name: 'gh', command: 'gh-mcp', env: { GITHUB_TOKEN: 'ghp_env' } }],
        },
      },
    });
    const { mcp_config } = await env.fake.snapshot();
    expect(mcp_config).toEqual({
      sse_servers: [],
      shttp_servers: [{ url: 'https://mcp.example.com', api_key: '**********', timeout: 60 }],
      stdio_servers: [{ name: 'gh', command: 'gh-mcp', args: [], env: { GITHUB_TOKEN: '**********' } }],
    });
  });

  it('answers 401 without the key', async () => {
    expect(await call('POST', '/api/add-git-providers', { body: {}, key: null })).toMatchObject({
      status: 401,
      body: { detail: 'Unauthorized' },
    });
  });

  it('never returns a stored token: not from any endpoint, nor from a snapshot', async () => {
    await call('POST', '/api/add-git-providers', {
      body: { provider_tokens: { github: { token: GITHUB_TOKEN }, gitlab: { token: GITLAB_TOKEN } } },
    });
    await call('POST', '/api/conversations', { body: { repository: 'a/b', git_provider: 'github' } });
    await call('POST', '/api/v1/app-conversations', { body: { selected_repository: 'a/b' } });
    env.fake.clock.advance(20_000);
    const texts: string[] = [];
    for (const route of routes) {
      if (route.method !== 'GET') continue;
      const path = route.path.replace(':conversation_id', 'x');
      const response = await fetch(`http://localhost:3000${path}?ids=00000000-0000-4000-8000-000000000000&id=x`, {
        headers: { 'x-session-api-key': 'test-session-key' },
      });
      texts.push(await response.text());
    }
    texts.push(JSON.stringify(await env.fake.snapshot()));
    const all = texts.join('\n');
    expect(all).not.toContain(GITHUB_TOKEN);
    expect(all).not.toContain(GITLAB_TOKEN);
    expect(all).toContain('**********');
  });
});
