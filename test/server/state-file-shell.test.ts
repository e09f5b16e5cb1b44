/**
 * The agent host's shell (`/api/bash/*`) is the state's like any record: `fakehands serve
 * --state-file` keeps its events and the output of commands still running across a restart (a
 * search answers alike), its change log holds the shell's steps (never the whole shell), and a
 * command the state file cannot take is undone.
 */
import { mkdtemp, open, readFile, rename, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFake } from '../../src/index.js';
import { createFakeCore } from '../../src/fake.js';
import { MAX_BASH_HISTORY_CHARS } from '../../src/domain/agent-world/bash.js';
import { createFakeServer } from '../../src/server/http-server.js';
import { freePort } from '../../src/server/start.js';
import { StateFileWriter, readStateFile, type StateFileIo } from '../../src/server/state-file.js';
import { startCli } from '../support/cli.js';

/** A fresh folder and the path of a state file in it. */
async function stateFile(): Promise<string> {
  return join(await mkdtemp(join(tmpdir(), 'fakehands-shell-')), 'state.json');
}

/** A client of an agent host under `--auth none`: each call answers its status and body. */
const client = (agentUrl: string) => async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${agentUrl}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

/** The bash events a search answers, oldest first (one page of at most 100). */
const bashEvents = async (agentUrl: string) =>
  (await client(agentUrl)('GET', '/api/bash/bash_events/search?limit=100')).body.items as {
    kind: string;
    command?: string;
    stdout?: string | null;
    exit_code?: number | null;
  }[];

describe('fakehands serve --state-file: the shell', () => {
  it('keeps the bash history across a clean restart, search answered alike, and a command still running publishes its output after it', async () => {
    const file = await stateFile();
    const serve = () => startCli(['--quiet', '--auth', 'none', '--fixture', 'empty', '--state-file', file]);
    const first = await serve();
    const call = client(first.agentUrl);
    expect((await call('POST', '/api/bash/execute_bash_command', { command: 'echo first' })).status).toBe(200);
    const stopped = await call('POST', '/api/bash/start_bash_command', { command: 'sleep 3600' });
    expect((await call('POST', `/api/bash/bash_commands/${stopped.body.id as string}/stop`)).body).toEqual({ success: true });
    expect((await call('POST', '/api/bash/execute_bash_command', { command: 'echo cleared' })).status).toBe(200);
    // A command whose output is due seconds from now: pending across the restart.
    const running = await call('POST', '/api/bash/start_bash_command', { command: 'sleep 4' });
    const before = await call('GET', '/api/bash/bash_events/search?limit=100');
    first.proc.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const second = await serve();
    try {
      expect(await client(second.agentUrl)('GET', '/api/bash/bash_events/search?limit=100')).toEqual(before);
      expect(
        (before.body.items as { kind: string; command?: string; exit_code?: number | null; stdout?: string | null }[]).map((e) => [
          e.kind,
          e.command ?? e.stdout ?? e.exit_code,
        ]),
      ).toEqual([
        ['BashCommand', 'echo first'],
        ['BashOutput', 'first\n'],
        ['BashCommand', 'sleep 3600'],
        ['BashOutput', -15],
        ['BashCommand', 'echo cleared'],
        ['BashOutput', 'cleared\n'],
        ['BashCommand', 'sleep 4'],
      ]);
      let events = await bashEvents(second.agentUrl);
      for (let tries = 0; tries < 100 && events.length < 8; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        events = await bashEvents(second.agentUrl);
      }
      expect(events.at(-1)).toMatchObject({ kind: 'BashOutput', command_id: running.body.id, exit_code: 0 });
      // A clear is kept too.
      expect((await client(second.agentUrl)('DELETE', '/api/bash/bash_events')).body).toEqual({ cleared_count: 8 });
    } finally {
      second.proc.kill('SIGTERM');
      await second.exited;
    }
    const third = await serve();
    try {
      expect(await bashEvents(third.agentUrl)).toEqual([]);
    } finally {
      third.proc.kill('SIGTERM');
      await third.exited;
    }
  }, 60_000);
});

describe('StateFileWriter', () => {
  it("appends one line of the shell's steps per operation (what it published, dropped or queued), and the file reads back as the shell is", async () => {
    const file = await stateFile();
    const AGENT = 'http://agent.test';
    const fake = await createFake({ clock: 'manual', fixture: 'empty', auth: 'none', agentUrl: AGENT });
    const writer = new StateFileWriter(file);
    await writer.write(await fake.snapshot());
    fake.onChange((changes, state) => writer.record(changes, state));
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fake.fetch(
        new Request(`${AGENT}${path}`, {
          method,
          headers: { 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
      );
      return (await response.json()) as Record<string, unknown>;
    };
    try {
      const snapshot = await readFile(file, 'utf8');
      // 1 MB outputs past MAX_BASH_HISTORY_CHARS: the oldest events are dropped.
      const big = `echo ${'x'.repeat(1_000_000)}`;
      for (let i = 0; i < 20; i++) await call('POST', '/api/bash/execute_bash_command', { command: big });
      const listing = await call('POST', '/api/bash/start_bash_command', { command: 'ls /home/openhands/projects' });
      const stopped = await call('POST', '/api/bash/start_bash_command', { command: 'sleep 60' });
      await call('POST', `/api/bash/bash_commands/${stopped.id as string}/stop`);
      fake.clock.advance(500);
      await call('GET', '/api/bash/bash_events/search');
      const pending = await call('POST', '/api/bash/start_bash_command', { command: 'sleep 5' });
      await writer.flush();

      // The snapshot as it was (compared by equality: a diff of it would print megabytes).
      expect((await readFile(file, 'utf8')) === snapshot).toBe(true);
      const lines = (await readFile(`${file}.log`, 'utf8'))
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as { op: string; steps: Record<string, unknown>[] });
      expect(new Set(lines.map((line) => line.op))).toEqual(new Set(['shell']));
      const steps = lines.flatMap((line) => line.steps.map((step) => Object.keys(step)[0]));
      expect(new Set(steps)).toEqual(new Set(['append', 'drop', 'pend', 'unpend', 'publish']));
      // Publishing a line that came due writes its count, not the line again.
      expect(lines.at(-2)!.steps).toEqual([{ publish: 1 }]);

      const shown = (await fake.snapshot()).shell!;
      expect(shown.pending.map((p) => p.event)).toMatchObject([
        { command_id: listing.id, order: 1 },
        { command_id: pending.id, order: 0, exit_code: 0 },
      ]);
      let chars = 0;
      for (const event of shown.events) chars += 200 + JSON.stringify(event).length;
      expect(chars).toBeLessThan(MAX_BASH_HISTORY_CHARS + 200 * shown.events.length);
      expect(JSON.stringify(((await readStateFile(file)) as { shell: unknown }).shell) === JSON.stringify(shown)).toBe(true);
    } finally {
      await writer.close();
    }
  });
});

describe('POST /api/bash/execute_bash_command', () => {
  it('answers 507 and keeps no event when the state file cannot be written (a full disk)', async () => {
    const file = await stateFile();
    let full = false;
    const io: StateFileIo = {
      rename,
      unlink,
      open: (async (path: string, flags: number, mode: number) => {
        const handle = await open(path, flags, mode);
        const noSpace = () => Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
        return Object.assign(Object.create(handle) as typeof handle, {
          write: (...args: Parameters<typeof handle.write>) => (full ? Promise.reject(noSpace()) : handle.write(...args)),
          writeFile: (...args: Parameters<typeof handle.writeFile>) => (full ? Promise.reject(noSpace()) : handle.writeFile(...args)),
          truncate: (length?: number) => handle.truncate(length),
          stat: () => handle.stat(),
          sync: () => handle.sync(),
          close: () => handle.close(),
        });
      }) as StateFileIo['open'],
    };
    const agentUrl = `http://127.0.0.1:${await freePort('127.0.0.1', 0)}`;
    const fake = await createFakeCore({ clock: 'system', auth: 'none', fixture: 'empty', timings: 'instant', agentUrl });
    const writer = new StateFileWriter(file, io);
    await writer.write(await fake.snapshot());
    const server = createFakeServer(fake, { origin: agentUrl, stateFile: writer });
    await server.listen(Number(new URL(agentUrl).port), '127.0.0.1');
    const call = client(agentUrl);
    try {
      expect((await call('POST', '/api/bash/execute_bash_command', { command: 'echo kept' })).status).toBe(200);
      full = true;
      const refused = await call('POST', '/api/bash/execute_bash_command', { command: 'echo refused' });
      expect(refused.status).toBe(507);
      expect((await call('DELETE', '/api/bash/bash_events')).status).toBe(507);
      full = false;
      expect((await bashEvents(agentUrl)).map((e) => e.command ?? e.stdout)).toEqual(['echo kept', 'kept\n']);
      await writer.flush();
      expect(((await readStateFile(file)) as { shell: { events: unknown[] } }).shell.events).toHaveLength(2);
    } finally {
      await server.close();
    }
  });
});
