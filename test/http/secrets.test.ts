/**
 * Custom secrets and provider tokens: legacy `/api/secrets` and `/api/unset-provider-tokens` copy
 * openhands `server/routes/secrets.py` (load_custom_secrets_names, create_custom_secret: 201 and
 * 400 `{"message": "Secret X already exists"}`, update_custom_secret: 404 `{"error": "Secret with ID
 * X not found"}`, delete_custom_secret, unset_provider_tokens); `/api/v1/secrets` copies
 * `app-server.openapi.json` (`CustomSecretCreate`, `CustomSecretPage`, `EditResponse`).
 */
import { describe, expect, it } from 'vitest';
import { call, useFake } from '../support/api.js';

const env = useFake({ fixture: 'empty' });
const VALUE = 'fakehands-secret-value-0123456789';

describe('GET /api/secrets, POST /api/secrets', () => {
  it('creates a secret (201) that is listed by name and description, never by value', async () => {
    expect(await call('GET', '/api/secrets')).toMatchObject({ status: 200, body: { custom_secrets: [] } });
    expect(await call('POST', '/api/secrets', { body: { name: 'NPM_TOKEN', value: VALUE, description: 'Publishes' } })).toMatchObject({
      status: 201,
      body: { message: 'Secret created successfully' },
    });
    const listed = await call('GET', '/api/secrets');
    expect(listed).toMatchObject({ status: 200, body: { custom_secrets: [{ name: 'NPM_TOKEN', description: 'Publishes' }] } });
    expect(JSON.stringify(listed.body)).not.toContain(VALUE);
    expect(JSON.stringify(await env.fake.snapshot())).not.toContain(VALUE);
  });

  it('answers 400 {"message": "Secret X already exists"} for a taken name, 422 without a value, and changes nothing', async () => {
    await call('POST', '/api/secrets', { body: { name: 'A', value: VALUE } });
    expect(await call('POST', '/api/secrets', { body: { name: 'A', value: 'other' } })).toMatchObject({
      status: 400,
      body: { message: 'Secret A already exists' },
    });
    expect(await call('POST', '/api/secrets', { body: { name: 'B' } })).toMatchObject({
      status: 422,
      body: { detail: [{ type: 'missing', loc: ['body', 'value'] }] },
    });
    expect((await call('GET', '/api/secrets')).body).toEqual({ custom_secrets: [{ name: 'A', description: null }] });
  });
});

describe('PUT /api/secrets/{id}, DELETE /api/secrets/{id}', () => {
  it('renames a secret and changes its description, keeping its value; deletes it', async () => {
    await call('POST', '/api/secrets', { body: { name: 'OLD', value: VALUE } });
    expect(await call('PUT', '/api/secrets/OLD', { body: { name: 'NEW', description: 'renamed' } })).toMatchObject({
      status: 200,
      body: { message: 'Secret updated successfully' },
    });
    expect((await call('GET', '/api/secrets')).body).toEqual({ custom_secrets: [{ name: 'NEW', description: 'renamed' }] });
    // The renamed secret is still a secret (its value kept, redacted in a snapshot).
    expect((await env.fake.snapshot()).secrets).toEqual([{ name: 'NEW', description: 'renamed', value: '**********' }]);
    expect(await call('DELETE', '/api/secrets/NEW')).toMatchObject({ status: 200, body: { message: 'Secret deleted successfully' } });
    expect((await call('GET', '/api/secrets')).body).toEqual({ custom_secrets: [] });
  });

  it('answers 404 {"error": "Secret with ID X not found"} for an unknown one and 400 for a rename onto a taken name', async () => {
    await call('POST', '/api/secrets', { body: { name: 'A', value: VALUE } });
    await call('POST', '/api/secrets', { body: { name: 'B', value: VALUE } });
    expect(await call('PUT', '/api/secrets/C', { body: { name: 'D' } })).toMatchObject({
      status: 404,
      body: { error: 'Secret with ID C not found' },
    });
    expect(await call('DELETE', '/api/secrets/C')).toMatchObject({ status: 404, body: { error: 'Secret with ID C not found' } });
    expect(await call('PUT', '/api/secrets/A', { body: { name: 'B' } })).toMatchObject({
      status: 400,
      body: { message: 'Secret B already exists' },
    });
    expect((await call('GET', '/api/secrets')).body).toEqual({
      custom_secrets: [
        { name: 'A', description: null },
        { name: 'B', description: null },
      ],
    });
  });
});

describe('POST /api/unset-provider-tokens', () => {
  it('forgets every provider token: the settings no longer list them', async () => {
    await call('POST', '/api/settings', { body: { language: 'en' } });
    await call('POST', '/api/add-git-providers', { body: { provider_tokens: { github: { token: 'ghp_x' } } } });
    expect((await call('GET', '/api/v1/settings')).body).toMatchObject({ provider_tokens_set: { github: null } });
    expect(await call('POST', '/api/unset-provider-tokens')).toMatchObject({ status: 200, body: { message: 'Unset Git provider tokens' } });
    expect((await call('GET', '/api/v1/settings')).body).toMatchObject({ provider_tokens_set: {} });
  });
});

describe('/api/v1/secrets', () => {
  it('creates, searches by name (paged by name), renames and deletes; the legacy list sees the same secrets', async () => {
    for (const name of ['ALPHA', 'BETA', 'GAMMA'])
      expect(await call('POST', '/api/v1/secrets', { body: { name, value: VALUE } })).toMatchObject({
        status: 201,
        body: { message: 'Secret created successfully' },
      });
    expect(await call('GET', '/api/v1/secrets/search?limit=2')).toMatchObject({
      status: 200,
      body: { items: [{ name: 'ALPHA' }, { name: 'BETA' }], next_page_id: 'GAMMA' },
    });
    expect(await call('GET', '/api/v1/secrets/search?page_id=GAMMA')).toMatchObject({
      body: { items: [{ name: 'GAMMA' }], next_page_id: null },
    });
    expect(await call('GET', '/api/v1/secrets/search?name__contains=et')).toMatchObject({ body: { items: [{ name: 'BETA' }] } });
    expect(await call('PUT', '/api/v1/secrets/BETA', { body: { name: 'DELTA', description: 'd' } })).toMatchObject({ status: 200 });
    expect(await call('DELETE', '/api/v1/secrets/ALPHA')).toMatchObject({ status: 200 });
    expect((await call('GET', '/api/secrets')).body).toEqual({
      custom_secrets: [
        { name: 'DELTA', description: 'd' },
        { name: 'GAMMA', description: null },
      ],
    });
  });

  it('stores and forgets git providers (/api/v1/secrets/git-providers); 422 for a limit over 100', async () => {
    expect(
      await call('POST', '/api/v1/secrets/git-providers', {
        body: { provider_tokens: { gitlab: { token: 'glpat-x', host: 'gitlab.example.com' } } },
      }),
    ).toMatchObject({ status: 200, body: { message: 'Git providers stored' } });
    expect((await call('GET', '/api/settings')).status).toBe(404);
    expect(env.fake.service.providerTokens()).toEqual({ gitlab: { token: 'glpat-x', host: 'gitlab.example.com', user_id: null } });
    expect(await call('DELETE', '/api/v1/secrets/git-providers')).toMatchObject({
      status: 200,
      body: { message: 'Unset Git provider tokens' },
    });
    expect(env.fake.service.providerTokens()).toEqual({});
    expect(await call('GET', '/api/v1/secrets/search?limit=101')).toMatchObject({
      status: 422,
      body: { detail: [{ type: 'less_than_equal', loc: ['query', 'limit'] }] },
    });
  });
});
