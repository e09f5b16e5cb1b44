/**
 * Reliability, round four (issue 29), the data findings: timestamps of scripted runs (3), ids after
 * a restart on a state file (5), a change log that grew with the record (6), recovery from a full
 * disk (8). Each reproduced as a test first; the start-up figures of finding 13 are in bench/.
 */
import { mkdtemp, open, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFake, type Fixture, type FakeOptionsInput } from '../../src/index.js';
import { formatDateTime } from '../../src/schemas/datetime.js';
import { Store } from '../../src/domain/store/store.js';
import { StateFileWriter, readStateFile, type StateFileIo } from '../../src/server/state-file.js';
import { startCli } from '../support/cli.js';

const APP = 'http://localhost:3000';
const AGENT = 'http://localhost:3001';
/** The canonical stored form of a datetime: whole microseconds. */
const CANONICAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

async function stateFolder(): Promise<string> {
  return join(await mkdtemp(join(tmpdir(), 'fakehands-r4-')), 'state.json');
}

/** A fake on a manual clock with `agentScripts`, and a ready V1 conversation to send messages to. */
async function scripted(agentScripts: FakeOptionsInput['agentScripts'], agentRunMs = 10_000) {
  const fake = await createFake({
    baseUrl: APP,
    agentUrl: AGENT,
    auth: 'none',
    fixture: 'empty',
    clock: 'manual',
    timings: { agentRunMs },
    agentScripts,
  });
  const call = async (url: string, init: RequestInit = {}) => {
    const response = await fake.fetch(new Request(url, init));
    return { status: response.status, body: (await response.json()) as Record<string, unknown> & { items?: Record<string, unknown>[] } };
  };
  const task = (
    await call(`${APP}/api/v1/app-conversations`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
  ).body;
  fake.clock.advance(60_000);
  const [ready] = (await call(`${APP}/api/v1/app-conversations/start-tasks?ids=${String(task.id)}`)).body as unknown as {
    app_conversation_id: string;
  }[];
  const [conversation] = (await call(`${APP}/api/v1/app-conversations?ids=${ready!.app_conversation_id}`)).body as unknown as {
    id: string;
    session_api_key: string;
  }[];
  const headers = { 'x-session-api-key': conversation!.session_api_key, 'content-type': 'application/json' };
  const send = (text: string) =>
    call(`${AGENT}/api/conversations/${conversation!.id}/events`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ role: 'user', content: [{ type: 'text', text }], run: true }),
    });
  const events = async () =>
    (await call(`${AGENT}/api/conversations/${conversation!.id}/events/search?limit=100`, { headers })).body.items ?? [];
  return { fake, call, send, events, conversation: conversation! };
}

describe('an agent run stamped at fractions of agentRunMs (finding 3)', () => {
  for (const [name, steps] of [
    ['5 message steps', [{ message: 'one' }, { message: 'two' }, { message: 'three' }, { message: 'four' }, { message: 'five' }]],
    ['an error step and a message step', [{ error: 'Command timed out' }, { message: 'Done.' }]],
  ] as const) {
    it(`finding 3: with ${name}, every route answers 200 through the run, each step is stamped in whole microseconds, and the state loads again`, async () => {
      const { fake, call, send, events } = await scripted([{ steps: [...steps] }]);
      expect((await send('go')).status).toBe(200);
      for (let second = 1; second <= 11; second++) {
        fake.clock.advance(1000);
        expect((await call(`${APP}/api/v1/sandboxes/search`)).status).toBe(200);
        expect((await call(`${APP}/api/settings`)).status).toBe(404); // not saved yet: its documented answer, not a 500
        expect((await call(`${APP}/_fakehands/state`)).status).toBe(200);
      }
      const log = await events();
      expect(log.at(-1)).toMatchObject({ kind: 'ConversationStateUpdateEvent', value: 'finished' });
      const snapshot = await fake.snapshot();
      for (const event of snapshot.events) expect(event.created_at).toMatch(CANONICAL);
      const again = await createFake({ fixture: snapshot, auth: 'none' });
      expect((await again.snapshot()).events).toHaveLength(snapshot.events.length);
    });
  }

  it('finding 3: a clock set to a fraction of a millisecond stamps the millisecond it falls in, and creates keep answering 200', async () => {
    const fake = await createFake({ fixture: 'empty', auth: 'none', clock: 'manual', timings: 'instant' });
    fake.clock.set(Date.parse('2025-11-03T09:00:00.000Z') + 1000 / 3);
    for (let i = 0; i < 3; i++) {
      const created = await fake.fetch(new Request(`${APP}/api/v1/sandboxes`, { method: 'POST' }));
      expect(created.status).toBe(200);
      expect(((await created.json()) as { created_at: string }).created_at).toMatch(/^2025-11-03T09:00:00\.333\d{3}Z$/);
    }
  });

  it("finding 3: a time that names no real instant is refused by the record's schema, and the store stays whole", async () => {
    const store = new Store();
    await expect(
      store.events.insert({ id: 'e1', conversation_id: 'c1', created_at: '2025-13-45T09:00:00Z', event: { kind: 'PauseEvent' } } as never),
    ).rejects.toThrow('expected an ISO 8601 datetime of a real instant');
    expect(store.events.size).toBe(0);
    expect(store.budget.records).toBe(0);
    expect(() => formatDateTime(Date.parse('2025-11-03T09:00:00Z'), 666.75)).toThrow('is not a whole number of microseconds');
  });
});

describe('a restart on --state-file (finding 5)', () => {
  it('finding 5: events, ids and session keys made after each of two restarts are new; 300 messages answer 200 and the state file loads every time', async () => {
    const file = await stateFolder();
    const serve = () => startCli(['--quiet', '--auth', 'none', '--fixture', 'empty', '--timings', 'instant', '--state-file', file]);
    const post = async (url: string, body: unknown) => {
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    /** Starts a conversation (its start task is READY at once on instant timings) and sends it `count` messages; the statuses. */
    const converse = async (url: string, count: number) => {
      const task = (await post(`${url}/api/v1/app-conversations`, {})).body;
      const [ready] = (await (await fetch(`${url}/api/v1/app-conversations/start-tasks?ids=${String(task.id)}`)).json()) as {
        app_conversation_id: string;
      }[];
      const statuses: number[] = [];
      for (let i = 0; i < count; i++) {
        statuses.push(
          (
            await post(`${url}/api/v1/app-conversations/${ready!.app_conversation_id}/send-message`, {
              content: [{ type: 'text', text: `message ${i}` }],
              run: false,
            })
          ).status,
        );
      }
      return statuses;
    };
    const statuses: number[] = [];
    for (const count of [100, 100, 100]) {
      const cli = await serve();
      for (let i = 0; i < 3; i++) statuses.push((await post(`${cli.url}/api/v1/sandboxes`, {})).status);
      statuses.push(...(await converse(cli.url, count)));
      cli.proc.kill('SIGTERM');
      expect(await cli.exited).toBe(0);
    }
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    const saved = (await readStateFile(file)) as Fixture;
    expect(new Set(saved.events.map((e) => e.id)).size).toBe(saved.events.length);
    expect(saved.events.length).toBeGreaterThanOrEqual(300);
    const keys = saved.sandboxes.map((s) => s.session_api_key);
    expect(keys).toHaveLength(12);
    expect(new Set(keys).size).toBe(12);
    expect(new Set(saved.sandboxes.map((s) => s.id)).size).toBe(12);
    // And the file the fake wrote starts it again.
    const last = await serve();
    expect((await fetch(`${last.url}/api/v1/sandboxes/search`)).status).toBe(200);
    last.proc.kill('SIGTERM');
    await last.exited;
  }, 120_000);

  it('finding 5: a sandbox made after a restart never gets the id or session key of one deleted before it', async () => {
    const file = await stateFolder();
    const serve = () => startCli(['--quiet', '--auth', 'none', '--fixture', 'empty', '--timings', 'instant', '--state-file', file]);
    const made: { id: string; session_api_key: string }[] = [];
    for (let run = 0; run < 3; run++) {
      const cli = await serve();
      const created = await fetch(`${cli.url}/api/v1/sandboxes`, { method: 'POST' });
      expect(created.status).toBe(200);
      const { id } = (await created.json()) as { id: string };
      // Its key is shown once it runs (at once, on instant timings).
      const { items } = (await (await fetch(`${cli.url}/api/v1/sandboxes/search`)).json()) as {
        items: { id: string; session_api_key: string }[];
      };
      const sandbox = items.find((s) => s.id === id)!;
      expect(sandbox.session_api_key).toMatch(/^[A-Za-z0-9]{43}$/);
      made.push(sandbox);
      expect((await fetch(`${cli.url}/api/v1/sandboxes/${sandbox.id}?sandbox_id=${sandbox.id}`, { method: 'DELETE' })).status).toBe(200);
      cli.proc.kill('SIGTERM');
      expect(await cli.exited).toBe(0);
    }
    expect(new Set(made.map((s) => s.id)).size).toBe(3);
    expect(new Set(made.map((s) => s.session_api_key)).size).toBe(3);
  }, 60_000);

  it("finding 5: a fake loaded from another's snapshot with the same seed gives new events new ids", async () => {
    const { fake, send } = await scripted([{ steps: [{ message: 'one' }] }], 0);
    for (let i = 0; i < 5; i++) expect((await send(`turn ${i}`)).status).toBe(200);
    const snapshot = await fake.snapshot();
    const again = await createFake({ baseUrl: APP, agentUrl: AGENT, auth: 'none', fixture: snapshot, clock: 'manual', timings: 'instant' });
    const conversation = snapshot.conversations[0]!;
    const sandbox = snapshot.sandboxes.find((s) => s.id === conversation.sandbox_id)!;
    const headers = { 'x-session-api-key': sandbox.session_api_key, 'content-type': 'application/json' };
    for (let i = 0; i < 40; i++) {
      const answer = await again.fetch(
        new Request(`${AGENT}/api/conversations/${conversation.id}/events`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ role: 'user', content: [{ type: 'text', text: `again ${i}` }], run: true }),
        }),
      );
      expect(answer.status).toBe(200);
    }
    const events = (await again.snapshot()).events;
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
  });
});

/** A fake writing its changes to a state file in a fresh folder (through `io`), and that file's path. */
async function persisted(io?: StateFileIo, options: FakeOptionsInput = {}) {
  const file = await stateFolder();
  const fake = await createFake({ baseUrl: APP, agentUrl: AGENT, fixture: 'empty', timings: 'instant', auth: 'none', ...options });
  const writer = new StateFileWriter(file, io);
  await writer.write(await fake.snapshot());
  fake.onChange((changes, current) => writer.record(changes, current));
  return { fake, file, writer };
}

describe('the change log of uploads (finding 6)', () => {
  it('finding 6: each upload adds about its own size to the log, whatever the sandbox holds already, and every upload loads again', async () => {
    const { fake, file, writer } = await persisted();
    const task = (await (
      await fake.fetch(
        new Request(`${APP}/api/v1/app-conversations`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
      )
    ).json()) as { id: string };
    const [ready] = await fake.service.getStartTasks([task.id]);
    const sandbox = (await fake.snapshot()).sandboxes.find((s) => s.id === ready!.sandbox_id)!;
    const content = 'x'.repeat(30_000); // 40,000 bytes of base64
    const sizes: number[] = [(await stat(`${file}.log`)).size];
    for (let i = 0; i < 25; i++) {
      const form = new FormData();
      form.append('file', new Blob([content], { type: 'text/plain' }), 'notes.txt');
      const path = `/workspace/project/uploads/file-${i}.txt`;
      const answer = await fake.fetch(
        new Request(`${AGENT}/api/file/upload?path=${encodeURIComponent(path)}`, {
          method: 'POST',
          headers: { 'x-session-api-key': sandbox.session_api_key! },
          body: form,
        }),
      );
      expect(answer.status).toBe(200);
      sizes.push((await stat(`${file}.log`)).size);
    }
    const growth = sizes.slice(1).map((size, i) => size - sizes[i]!);
    // Each upload logs its own 40 KB of base64 and a little more; before, the whole map (up to 1 MB).
    expect(Math.max(...growth)).toBeLessThan(42_000);
    expect(Math.min(...growth)).toBeGreaterThan(40_000);
    await writer.close();
    const saved = (await readStateFile(file)) as Fixture;
    expect(Object.keys(saved.sandboxes.find((s) => s.id === sandbox.id)!.uploaded_files ?? {})).toHaveLength(25);
  });

  it('finding 6: a replaced upload and one of several keys logs only that key, and the replay gives the same map as memory', async () => {
    const { fake, file, writer } = await persisted();
    const created = await fake.service.startSandbox(null);
    const running = (await fake.snapshot()).sandboxes.find((s) => s.id === created.id)!;
    const upload = async (path: string, text: string) => {
      const form = new FormData();
      form.append('file', new Blob([text]), 'f');
      return (
        await fake.fetch(
          new Request(`${AGENT}/api/file/upload?path=${encodeURIComponent(path)}`, {
            method: 'POST',
            headers: { 'x-session-api-key': running.session_api_key! },
            body: form,
          }),
        )
      ).status;
    };
    for (const name of ['a', 'b', 'c', 'd']) expect(await upload(`/workspace/${name}.txt`, `first ${name}`)).toBe(200);
    expect(await upload('/workspace/b.txt', 'second b')).toBe(200);
    const lines = (await readFile(`${file}.log`, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.at(-1)).toEqual({
      op: 'patch',
      entity: 'sandbox',
      id: created.id,
      set: {},
      merge: { uploaded_files: { '/workspace/b.txt': Buffer.from('second b').toString('base64') } },
    });
    const inMemory = (await fake.snapshot()).sandboxes.find((s) => s.id === created.id)!.uploaded_files;
    await writer.flush();
    const replayed = ((await readStateFile(file)) as Fixture).sandboxes.find((s) => s.id === created.id)!.uploaded_files;
    expect(replayed).toEqual(inMemory);
    await writer.close();
  });
});

/** The real file system, with every write failing with ENOSPC while `disk.full` (snapshots and log alike). */
function fullDisk(disk: { full: boolean }): StateFileIo {
  const enospc = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
  return {
    rename,
    unlink,
    open: (async (path: string, flags: number, mode?: number) => {
      const handle = await open(path, flags, mode);
      return Object.assign(Object.create(handle) as typeof handle, {
        write: async (buffer: Buffer, offset = 0, length = buffer.length - offset) => {
          if (disk.full) throw enospc();
          return handle.write(buffer, offset, length);
        },
        writeFile: async (data: string) => {
          if (disk.full) throw enospc();
          return handle.writeFile(data);
        },
        truncate: (len?: number) => handle.truncate(len),
        sync: () => handle.sync(),
        stat: () => handle.stat(),
        close: () => handle.close(),
      });
    }) as StateFileIo['open'],
  };
}

describe('a full disk, then room again (finding 8)', () => {
  it('finding 8: a state first written while the disk is full answers 507, and once there is room the next create answers 200 and the whole state loads', async () => {
    const disk = { full: true };
    const file = await stateFolder();
    const fake = await createFake({ fixture: 'empty', timings: 'instant', auth: 'none' });
    const writer = new StateFileWriter(file, fullDisk(disk));
    // As a tenant is wired: its first snapshot is written before its first request, which waits for it.
    const ready = writer.write(await fake.snapshot()).catch(() => undefined);
    fake.onChange((changes, current) => ready.then(() => writer.record(changes, current)));
    const create = () => fake.fetch(new Request(`${APP}/api/v1/sandboxes`, { method: 'POST' }));
    expect((await create()).status).toBe(507);
    expect((await fake.snapshot()).sandboxes).toEqual([]);
    disk.full = false;
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await create()).status);
    expect(statuses).toEqual(Array(10).fill(200));
    await writer.flush();
    const saved = (await readStateFile(file)) as Fixture | null;
    expect(saved?.sandboxes).toHaveLength(10);
    await writer.close();
  });

  it('finding 8: a restart on --state-file writes no snapshot (it needs no free space) and goes on appending to the log', async () => {
    const file = await stateFolder();
    const serve = () => startCli(['--quiet', '--auth', 'none', '--fixture', 'empty', '--timings', 'instant', '--state-file', file]);
    const first = await serve();
    expect((await fetch(`${first.url}/api/v1/sandboxes`, { method: 'POST' })).status).toBe(200);
    first.proc.kill('SIGKILL'); // no fold of the log on the way out
    await first.exited;
    const before = await stat(file);
    const logBefore = (await stat(`${file}.log`)).size;
    expect(logBefore).toBeGreaterThan(0);
    const second = await serve();
    expect((await fetch(`${second.url}/api/v1/sandboxes`, { method: 'POST' })).status).toBe(200);
    const after = await stat(file);
    // The same snapshot file, untouched; the new sandbox went to the end of the log.
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
    expect((await stat(`${file}.log`)).size).toBeGreaterThan(logBefore);
    second.proc.kill('SIGKILL');
    await second.exited;
    expect(((await readStateFile(file)) as Fixture).sandboxes).toHaveLength(2);
  }, 60_000);

  it('finding 8: going on with a log whose last line was torn cuts it off, so the next line is whole', async () => {
    const file = await stateFolder();
    const fake = await createFake({ fixture: 'empty', timings: 'instant', auth: 'none' });
    const first = new StateFileWriter(file);
    await first.write(await fake.snapshot());
    const stop = fake.onChange((changes, current) => first.record(changes, current));
    await fake.service.startSandbox(null);
    stop();
    await first.flush();
    await writeFile(`${file}.log`, `${await readFile(`${file}.log`, 'utf8')}{"op":"put","entity":"sandb`);
    const second = new StateFileWriter(file);
    await second.adopt();
    fake.onChange((changes, current) => second.record(changes, current));
    await fake.service.startSandbox(null);
    await second.flush();
    const lines = (await readFile(`${file}.log`, 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    expect(((await readStateFile(file)) as Fixture).sandboxes).toHaveLength(2);
  });
});
