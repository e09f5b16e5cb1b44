/**
 * The `--state-file`: written atomically (a failed write leaves the old file whole), and written
 * for every change whatever caused it, before the change is answered, so `kill -9` right after
 * the answer loses nothing.
 */
import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { open, rename, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StateFileWriter, readStateFile, type StateFileIo } from '../../src/server/state-file.js';
import { createFake, type Fixture } from '../../src/index.js';
import { startCli } from '../support/cli.js';

const KEY = 'state-key';
const OLD = '{"old":"state, whole"}\n';
const state = (n: number) =>
  ({
    sandbox_specs: [],
    sandboxes: [],
    conversations: [],
    start_tasks: [],
    provider_tokens: {},
    mcp_config: null,
    n,
  }) as unknown as Fixture;

/** A fresh folder and the path of a state file in it, holding `OLD` when asked. */
async function folder(withOld = true): Promise<{ dir: string; file: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'fakehands-state-'));
  const file = join(dir, 'state.json');
  if (withOld) await writeFile(file, OLD);
  return { dir, file };
}

describe('StateFileWriter', () => {
  it('folds the change log into a new snapshot once it passes compactEvery lines: the log stays bounded and the file loads whole', async () => {
    const { file } = await folder(false);
    const fake = await createFake({ fixture: 'empty', timings: 'instant' });
    const writer = new StateFileWriter(file, undefined, { compactEvery: 10 });
    await writer.write(await fake.snapshot());
    fake.onChange((changes, current) => writer.record(changes, current));
    const logLines: number[] = [];
    let snapshots = 0;
    let lastSnapshot = await readFile(file, 'utf8');
    for (let i = 0; i < 35; i++) {
      await fake.service.startSandbox(null);
      logLines.push((await readFile(`${file}.log`, 'utf8')).split('\n').filter(Boolean).length);
      const snapshot = await readFile(file, 'utf8');
      if (snapshot !== lastSnapshot) snapshots++;
      lastSnapshot = snapshot;
    }
    await writer.close();
    expect(Math.max(...logLines)).toBeLessThanOrEqual(10);
    expect(snapshots).toBe(3);
    expect(((await readStateFile(file)) as Fixture).sandboxes).toHaveLength(35);
  });

  it('leaves the old file whole and no temp file behind when the disk fills up halfway through a write', async () => {
    const { dir, file } = await folder();
    const io: StateFileIo = {
      rename,
      unlink,
      open: (async (path: string, flags: string) => {
        const handle = await open(path, flags);
        return Object.assign(Object.create(handle) as typeof handle, {
          writeFile: async (text: string) => {
            await handle.writeFile(text.slice(0, text.length / 2));
            throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
          },
          sync: () => handle.sync(),
          close: () => handle.close(),
        });
      }) as StateFileIo['open'],
    };
    await expect(new StateFileWriter(file, io).write(state(1))).rejects.toThrow('ENOSPC');
    expect(await readFile(file, 'utf8')).toBe(OLD);
    expect(await readdir(dir)).toEqual(['state.json']);
  });

  it('syncs the new content to disk before it replaces the old file', async () => {
    const { file } = await folder();
    const steps: string[] = [];
    const io: StateFileIo = {
      unlink,
      rename: async (from, to) => {
        steps.push(`rename to ${String(to).endsWith('state.json') ? 'state.json' : to}`);
        return rename(from, to);
      },
      open: (async (path: string, flags: string) => {
        const handle = await open(path, flags);
        steps.push(String(path).endsWith('.tmp') ? 'open temp' : `open ${String(path).split('/').at(-1)}`);
        return Object.assign(Object.create(handle) as typeof handle, {
          writeFile: async (text: string) => {
            steps.push('write');
            await handle.writeFile(text);
          },
          sync: async () => {
            steps.push('sync');
            await handle.sync();
          },
          close: () => handle.close(),
        });
      }) as StateFileIo['open'],
    };
    await new StateFileWriter(file, io).write(state(2));
    expect(steps.slice(0, 4)).toEqual(['open temp', 'write', 'sync', 'rename to state.json']);
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ n: 2 });
  });
});

describe('fakehands serve --state-file', () => {
  const headers = { 'x-session-api-key': KEY };

  /** Starts the server, returns helpers over it. */
  async function serve(file: string) {
    const cli = await startCli(['--quiet', '--api-key', KEY, '--fixture', 'empty', '--state-file', file]);
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${cli.url}${path}`, {
        method,
        headers: { ...headers, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return response.json() as Promise<unknown>;
    };
    const saved = async () => (await readStateFile(file)) as Fixture;
    return { cli, call, saved };
  }

  it('writes a change made by a sandbox_error fault on a GET before answering it, and it survives kill -9', async () => {
    const { file } = await folder(false);
    const first = await serve(file);
    const sandbox = (await first.call('POST', '/api/v1/sandboxes')) as { id: string };
    await first.call('POST', '/_fakehands/faults', {
      kind: 'sandbox_error',
      method: 'GET',
      path: '/api/v1/sandboxes/search',
      sandbox_id: sandbox.id,
    });
    await first.call('GET', '/api/v1/sandboxes/search');
    first.cli.proc.kill('SIGKILL');
    await first.cli.exited;
    expect((await first.saved()).sandboxes.map((s) => [s.id, s.status])).toEqual([[sandbox.id, 'ERROR']]);

    const second = await serve(file);
    expect(await second.call('GET', `/api/v1/sandboxes?id=${sandbox.id}`)).toMatchObject([{ id: sandbox.id, status: 'ERROR' }]);
  });

  it('writes the time-driven steps a GET materialises (a start task becoming READY) before answering it', async () => {
    const { file } = await folder(false);
    const { cli, call, saved } = await serve(file);
    const task = (await call('POST', '/api/v1/app-conversations', {})) as { id: string };
    expect((await saved()).start_tasks.map((t) => t.status)).toEqual(['WORKING']);
    await call('POST', '/_fakehands/clock', { advance_ms: 60_000 });
    await call('GET', `/api/v1/app-conversations/start-tasks?ids=${task.id}`);
    const after = await saved();
    expect(after.start_tasks.map((t) => t.status)).toEqual(['READY']);
    expect(after.conversations).toHaveLength(1);
    cli.proc.kill('SIGKILL');
  });

  it('writes a reset through the control API', async () => {
    const { file } = await folder(false);
    const { cli, call, saved } = await serve(file);
    await call('POST', '/_fakehands/reset', { fixture: 'default' });
    expect((await saved()).sandboxes.length).toBeGreaterThan(10);
    cli.proc.kill('SIGKILL');
  });
});
