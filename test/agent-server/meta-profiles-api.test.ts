/**
 * The agent server's meta-profiles on the agent host (`/api/meta-profiles`): each describe names the
 * real function it copies in openhands-agent-server `meta_profiles_router.py` (with openhands-sdk
 * `llm/meta_profile_store.py`'s `MetaProfile` and `MetaProfileStore`); the answers are those the
 * real agent server 1.58.2 gave to the same requests.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeServers, type FakeServers } from '../../src/server/start.js';

let servers: FakeServers;

/** A request to the agent host: its status and JSON body. */
async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${servers.agentUrl}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

const ROUTER = { classifier_model: 'fast', classes: [{ description: 'UI work', model: 'smart' }] };

beforeAll(async () => {
  servers = await startFakeServers({ fake: { timings: 'instant', fixture: 'empty', auth: 'none' } });
});
afterAll(async () => servers.close());
afterEach(async () => servers.fake.reset());

describe('POST /api/meta-profiles/{name} (save_meta_profile)', () => {
  it('saves one (201), its fields as the model keeps them, what else was sent dropped; overwrites it', async () => {
    expect(await call('POST', '/api/meta-profiles/router', { ...ROUTER, classes: [{ ...ROUTER.classes[0], extra: 1 }], zzz: 1 })).toEqual({
      status: 201,
      body: { name: 'router', message: "Meta-profile 'router' saved" },
    });
    expect(await call('GET', '/api/meta-profiles/router')).toEqual({
      status: 200,
      body: { name: 'router', config: { ...ROUTER, prompt_template: null, model_table: null } },
    });
    const direct = { classifier_model: 'fast', prompt_template: 'Pick: {{ instance_text }}', model_table: 'fast | smart' };
    expect((await call('POST', '/api/meta-profiles/router', direct)).status).toBe(201);
    expect((await call('GET', '/api/meta-profiles/router')).body).toEqual({ name: 'router', config: { ...direct, classes: [] } });
  });

  it('refuses one that cannot route with a value_error at the body, quoting it as sent (MetaProfile.validate_routing_mode, _require_route)', async () => {
    const refused = (body: unknown, error: string) => ({
      status: 422,
      body: { detail: [{ type: 'value_error', loc: ['body'], msg: `Value error, ${error}`, input: body, ctx: { error } }] },
    });
    const none = { classifier_model: 'fast' };
    expect(await call('POST', '/api/meta-profiles/r', none)).toEqual(
      refused(none, 'A meta-profile needs either classes or a prompt_template to route.'),
    );
    const noVariable = { classifier_model: 'fast', prompt_template: 'Pick one' };
    expect(await call('POST', '/api/meta-profiles/r', noVariable)).toEqual(
      refused(noVariable, 'Direct-routing meta-profiles must include {{ instance_text }} in prompt_template.'),
    );
    const both = { ...ROUTER, prompt_template: '{{instance_text}}' };
    expect(await call('POST', '/api/meta-profiles/r', both)).toEqual(
      refused(both, 'Direct-routing meta-profiles cannot also define classes.'),
    );
    expect(await call('POST', '/api/meta-profiles/r', { classes: [] })).toEqual({
      status: 422,
      body: { detail: [{ type: 'missing', loc: ['body', 'classifier_model'], msg: 'Field required', input: { classes: [] } }] },
    });
    expect((await call('GET', '/api/meta-profiles')).body).toEqual({ meta_profiles: [], active_meta_profile: null });
  });

  it('refuses a name that does not start with a letter or digit (PROFILE_NAME_PATTERN), and a 51st meta-profile with 409', async () => {
    const pattern = '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$';
    expect(await call('POST', '/api/meta-profiles/.hidden', ROUTER)).toEqual({
      status: 422,
      body: {
        detail: [
          {
            type: 'string_pattern_mismatch',
            loc: ['path', 'name'],
            msg: `String should match pattern '${pattern}'`,
            input: '.hidden',
            ctx: { pattern },
          },
        ],
      },
    });
    for (let i = 0; i < 50; i++) expect((await call('POST', `/api/meta-profiles/m${i}`, ROUTER)).status).toBe(201);
    expect(await call('POST', '/api/meta-profiles/one-more', ROUTER)).toEqual({
      status: 409,
      body: { detail: 'Meta-profile limit reached (50). Delete a meta-profile before saving a new one.' },
    });
    expect((await call('POST', '/api/meta-profiles/m0', ROUTER)).status).toBe(201);
  });
});

describe('GET /api/meta-profiles and /api/meta-profiles/{name} (list_meta_profiles, get_meta_profile)', () => {
  it('lists each by name with its classifier and number of classes, and the active one; 404 for one not saved', async () => {
    await call('POST', '/api/meta-profiles/zeta', ROUTER);
    await call('POST', '/api/meta-profiles/alpha', { classifier_model: 'smart', prompt_template: '{{ instance_text }}' });
    expect(await call('GET', '/api/meta-profiles')).toEqual({
      status: 200,
      body: {
        meta_profiles: [
          { name: 'alpha', classifier_model: 'smart', num_classes: 0 },
          { name: 'zeta', classifier_model: 'fast', num_classes: 1 },
        ],
        active_meta_profile: null,
      },
    });
    expect(await call('GET', '/api/meta-profiles/nope')).toEqual({ status: 404, body: { detail: "Meta-profile 'nope' not found" } });
  });
});

describe('POST /api/meta-profiles/{name}/activate and DELETE /api/meta-profiles/{name} (activate_meta_profile, delete_meta_profile)', () => {
  it('activates a saved one (applied); deleting the active one clears it; a delete of one not saved succeeds too; 404 to activate one not saved', async () => {
    await call('POST', '/api/meta-profiles/router', ROUTER);
    expect(await call('POST', '/api/meta-profiles/nope/activate', {})).toEqual({
      status: 404,
      body: { detail: "Meta-profile 'nope' not found" },
    });
    expect(await call('POST', '/api/meta-profiles/router/activate', {})).toEqual({
      status: 200,
      body: { name: 'router', message: "Meta-profile 'router' activated", applied: true },
    });
    expect((await call('GET', '/api/meta-profiles')).body).toMatchObject({ active_meta_profile: 'router' });
    for (let i = 0; i < 2; i++)
      expect(await call('DELETE', '/api/meta-profiles/router')).toEqual({
        status: 200,
        body: { name: 'router', message: "Meta-profile 'router' deleted" },
      });
    expect((await call('GET', '/api/meta-profiles')).body).toEqual({ meta_profiles: [], active_meta_profile: null });
  });

  it('records nothing for an ACP agent, which cannot route between models (applied: false)', async () => {
    await call('POST', '/api/meta-profiles/router', ROUTER);
    expect((await call('PATCH', '/api/settings', { agent_settings_diff: { agent_kind: 'acp' } })).status).toBe(200);
    expect(await call('POST', '/api/meta-profiles/router/activate', {})).toEqual({
      status: 200,
      body: {
        name: 'router',
        message: "Meta-profile 'router' not activated: the current agent settings cannot route between models",
        applied: false,
      },
    });
    expect((await call('GET', '/api/meta-profiles')).body).toMatchObject({ active_meta_profile: null });
  });
});
