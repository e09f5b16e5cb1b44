/**
 * The SaaS routes Agent Canvas's cloud client calls, answered as a single-user install would.
 * Shapes from the published app-server OpenAPI document (Aug 2026; OpenHands Cloud's
 * `enterprise/server/routes`: `OrgPage`, `MeResponse`, `CurrentApiKeyResponse`,
 * `AgentProfileListResponse`, `SharedConversation`); what Canvas reads of them from its cloud client
 * (`src/api/cloud/organization-service.api.ts`: `current_org_id`, `org_id` of `/api/keys/current`;
 * `hooks/mutation/use-create-conversation.ts`: the agent profiles before every create).
 */
import { describe, expect, it } from 'vitest';
import { SINGLE_USER_ID } from '../../src/domain/user/saas.js';
import { call, useFake } from '../support/api.js';

useFake();

describe('GET /api/organizations', () => {
  it('lists one personal organization, the current one, with no secret in clear', async () => {
    const answer = await call<{ items: Record<string, unknown>[]; current_org_id: string; next_page_id: null }>(
      'GET',
      '/api/organizations',
    );
    expect(answer.status).toBe(200);
    expect(answer.body.items).toHaveLength(1);
    expect(answer.body.items[0]).toMatchObject({ id: SINGLE_USER_ID, is_personal: true, search_api_key: null, sandbox_api_key: null });
    expect(answer.body.current_org_id).toBe(SINGLE_USER_ID);
    expect(answer.body.next_page_id).toBeNull();
  });
});

describe('GET /api/organizations/{org_id}/me', () => {
  it('answers the user as the owner of the personal organization; 404 for any other', async () => {
    expect(await call('GET', `/api/organizations/${SINGLE_USER_ID}/me`)).toMatchObject({
      status: 200,
      body: { org_id: SINGLE_USER_ID, user_id: SINGLE_USER_ID, role: 'owner' },
    });
    expect(await call('GET', '/api/organizations/someone-else/me')).toMatchObject({
      status: 404,
      body: { detail: 'Organization not found' },
    });
  });
});

describe('GET /api/keys/current', () => {
  it('answers an unbound key whose effective organization is the personal one', async () => {
    expect(await call('GET', '/api/keys/current')).toMatchObject({
      status: 200,
      body: { id: 1, org_id: SINGLE_USER_ID, bound_org_id: null, user_id: SINGLE_USER_ID },
    });
  });
});

describe('/api/organizations/{org_id}/profiles', () => {
  it("are the user's LLM profiles: one saved there is listed under /api/v1/settings/profiles", async () => {
    expect(
      (await call('POST', `/api/organizations/${SINGLE_USER_ID}/profiles/fast`, { body: { llm: { model: 'openai/gpt-5-mini' } } })).status,
    ).toBe(201);
    const list = await call<{ profiles: { name: string; model: string }[] }>('GET', '/api/v1/settings/profiles');
    expect(list.body.profiles.map((p) => [p.name, p.model])).toContainEqual(['fast', 'openai/gpt-5-mini']);
    expect((await call<{ profiles: unknown[] }>('GET', `/api/organizations/${SINGLE_USER_ID}/profiles`)).body).toEqual(list.body);
    expect((await call('GET', '/api/organizations/other/profiles')).status).toBe(404);
  });
});

describe('GET /api/organizations/{org_id}/provider-connections', () => {
  it('answers no connection for the personal organization', async () => {
    expect(await call('GET', `/api/organizations/${SINGLE_USER_ID}/provider-connections`)).toMatchObject({
      status: 200,
      body: { connections: [] },
    });
  });
});

describe('GET /api/agent-profiles', () => {
  it("lists the built-in default OpenHands profile, none active (conversations run on the settings' LLM)", async () => {
    expect(await call('GET', '/api/agent-profiles')).toMatchObject({
      status: 200,
      body: {
        profiles: [{ id: 'default', name: 'default', agent_kind: 'openhands', llm_profile_ref: null }],
        active_agent_profile_id: null,
      },
    });
    expect(await call('GET', '/api/agent-profiles/default')).toMatchObject({
      status: 200,
      body: { name: 'default', profile: { agent_kind: 'openhands' } },
    });
    expect((await call('GET', '/api/agent-profiles/other')).status).toBe(404);
  });
});

describe('GET /api/shared-conversations, GET /api/shared-events/search', () => {
  it('answers a public conversation and its events; null and an empty page for a private one', async () => {
    const page = await call<{ items: { id: string }[] }>('GET', '/api/v1/app-conversations/search?limit=2');
    const [shared, hidden] = page.body.items.map((c) => c.id);
    expect((await call('PATCH', `/api/v1/app-conversations/${shared}`, { body: { public: true } })).status).toBe(200);
    expect((await call('PATCH', `/api/v1/app-conversations/${hidden}`, { body: { public: false } })).status).toBe(200);
    const answer = await call<({ id: string } | null)[]>('GET', `/api/shared-conversations?ids=${shared}&ids=${hidden}`);
    expect(answer.status).toBe(200);
    expect(answer.body[0]).toMatchObject({ id: shared });
    expect(answer.body[1]).toBeNull();
    const own = await call<{ items: unknown[] }>('GET', `/api/v1/conversation/${shared}/events/search?limit=100`);
    expect((await call('GET', `/api/shared-events/search?conversation_id=${shared}&limit=100`)).body).toEqual(own.body);
    expect((await call('GET', `/api/shared-events/search?conversation_id=${hidden}`)).body).toEqual({ items: [], next_page_id: null });
  });

  it('needs ids, as the published document declares the query (422 without)', async () => {
    const answer = await call('GET', '/api/shared-conversations');
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({ detail: [{ type: 'missing', loc: ['query', 'ids'], msg: 'Field required' }] });
  });
});

describe('GET /api/v1/app-conversations/{id}/files', () => {
  it("lists the workspace's files under a folder, relative to it; [] for an unknown conversation", async () => {
    const page = await call<{ items: { id: string; sandbox_status: string; selected_repository: string | null }[] }>(
      'GET',
      '/api/v1/app-conversations/search?limit=100',
    );
    const running = page.body.items.find((c) => c.sandbox_status === 'RUNNING')!;
    const root = running.selected_repository ? `/workspace/project/${running.selected_repository.split('/').at(-1)}` : '/workspace/project';
    const files = await call<string[]>('GET', `/api/v1/app-conversations/${running.id}/files?path=${encodeURIComponent(root)}`);
    expect(files.status).toBe(200);
    expect(files.body).toContain('README.md');
    expect(files.body).toEqual([...files.body].sort());
    const readme = await call<string>(
      'GET',
      `/api/v1/app-conversations/${running.id}/file?file_path=${encodeURIComponent(`${root}/README.md`)}`,
    );
    expect(readme.body.length).toBeGreaterThan(0);
    expect(await call('GET', '/api/v1/app-conversations/00000000000040008000000000000000/files?path=/workspace/project')).toMatchObject({
      status: 200,
      body: [],
    });
  });
});
