/**
 * Changes are events: whatever causes a change (a request, a fault on a GET, code, time, a
 * reset), `fake.onChange` hears it before the operation resolves; a read changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { createFake, type StateChange } from '../../src/index.js';

const BASE = 'http://localhost:3000';

async function recordingFake(fixture = 'empty') {
  const fake = await createFake({ auth: 'none', fixture });
  const heard: StateChange[][] = [];
  fake.onChange((changes) => void heard.push([...changes]));
  const get = (path: string) => fake.fetch(new Request(`${BASE}${path}`));
  const post = (path: string, body?: unknown) =>
    fake.fetch(
      new Request(`${BASE}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
  return { fake, heard, get, post };
}

describe('fake.onChange', () => {
  it('hears nothing from reads', async () => {
    const { heard, get } = await recordingFake('default');
    await get('/api/v1/sandboxes/search');
    await get('/api/conversations');
    expect(heard).toEqual([]);
  });

  it('hears a sandbox created by a request, before the answer arrives', async () => {
    const { heard, post } = await recordingFake();
    const sandbox = (await (await post('/api/v1/sandboxes')).json()) as { id: string };
    expect(heard).toEqual([[{ entity: 'sandbox', action: 'created', id: sandbox.id }]]);
  });

  it('hears a sandbox failed by a sandbox_error fault fired by a GET', async () => {
    const { fake, heard, get, post } = await recordingFake();
    const sandbox = (await (await post('/api/v1/sandboxes')).json()) as { id: string };
    fake.faults.add({ kind: 'sandbox_error', method: 'GET', path: '/api/v1/sandboxes', sandbox_id: sandbox.id });
    const [read] = (await (await get(`/api/v1/sandboxes?id=${sandbox.id}`)).json()) as { status: string }[];
    expect(read!.status).toBe('ERROR');
    expect(heard.at(-1)).toEqual([
      { entity: 'sandbox', action: 'updated', id: sandbox.id, fields: ['status', 'status_changed_at', 'status_detail'] },
    ]);
  });

  it('hears failSandbox() called from code', async () => {
    const { fake, heard, post } = await recordingFake();
    const sandbox = (await (await post('/api/v1/sandboxes')).json()) as { id: string };
    await fake.service.failSandbox(sandbox.id);
    expect(heard.at(-1)).toEqual([
      { entity: 'sandbox', action: 'updated', id: sandbox.id, fields: ['status', 'status_changed_at', 'status_detail'] },
    ]);
  });

  it('hears the time-driven steps of a start task, materialised by the first read after the clock moved', async () => {
    const { fake, heard, get, post } = await recordingFake();
    const task = (await (await post('/api/v1/app-conversations', {})).json()) as { id: string };
    heard.length = 0;
    fake.clock.advance(60_000);
    await get('/api/v1/sandboxes/search');
    const changes = heard.flat();
    expect(
      changes.filter((c) => c.entity === 'start_task').every((c) => c.id!.replaceAll('-', '') === task.id && c.action === 'updated'),
    ).toBe(true);
    // WAITING_FOR_SANDBOX, PREPARING_REPOSITORY, RUNNING_SETUP_SCRIPT, SETTING_UP_GIT_HOOKS, SETTING_UP_SKILLS, STARTING_CONVERSATION, READY
    expect(changes.filter((c) => c.entity === 'start_task')).toHaveLength(7);
    expect(changes.filter((c) => c.entity === 'conversation')).toEqual([
      { entity: 'conversation', action: 'created', id: expect.any(String) },
    ]);
  });

  it('hears a reset as the whole state replaced', async () => {
    const { fake, heard } = await recordingFake();
    await fake.reset({ fixture: 'default' });
    expect(heard).toEqual([[{ entity: 'state', action: 'replaced' }]]);
  });

  it('stops hearing after unsubscribing', async () => {
    const { fake, post } = await recordingFake();
    const later: StateChange[] = [];
    const unsubscribe = fake.onChange((changes) => void later.push(...changes));
    unsubscribe();
    await post('/api/v1/sandboxes');
    expect(later).toEqual([]);
  });
});

describe('fake.service across reset()', () => {
  it('is the same object, and a reference kept before a reset acts on the new state', async () => {
    const fake = await createFake({ auth: 'none', fixture: 'default' });
    const service = fake.service;
    await fake.reset({ fixture: 'empty' });
    expect(fake.service).toBe(service);
    const sandbox = await service.startSandbox(null);
    expect((await fake.snapshot()).sandboxes.map((s) => s.id)).toEqual([sandbox.id]);
  });

  it('keeps the old state when a reset fails, and later resets work', async () => {
    const fake = await createFake({ auth: 'none', fixture: 'empty' });
    await fake.service.startSandbox(null);
    await expect(fake.reset({ fixture: '/nonexistent/fixture.json' })).rejects.toMatchObject({ code: 'invalid_fixture' });
    expect((await fake.snapshot()).sandboxes).toHaveLength(1);
    await fake.reset();
    expect((await fake.snapshot()).sandboxes).toEqual([]);
  });
});
