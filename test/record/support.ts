/**
 * Test support of `fakehands record`: a fake's servers standing in for a real one (the target), a
 * recorder in front of it writing into a fresh folder, and what the folder holds (its HAR, the
 * conversations' ZIPs, every file's text, the ZIPs' inflated too).
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { afterAll } from 'vitest';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import WebSocket from 'ws';
import type { Har } from '../../src/domain/recording/har.js';
import { startRecorder, type Recorder } from '../../src/record/recorder.js';
import type { FakeOptionsInput } from '../../src/options.js';
import { startFakeServers, type FakeServers } from '../../src/server/start.js';

/** The folders made for this file's tests: removed after them. */
const made: string[] = [];
afterAll(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A fresh folder (removed after the file's tests). */
export async function freshDir(prefix = 'fakehands-record-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** The fake's servers as the target (an empty fake, instant, any key opening its agent host unless `fake` says otherwise). */
export const startTarget = (fake: Omit<FakeOptionsInput, 'agentUrl'> = {}): Promise<FakeServers> =>
  startFakeServers({ fake: { fixture: 'empty', timings: 'instant', auth: 'none', ...fake } });

/** A recorder in front of `target` writing into a fresh folder; its notes kept. */
export async function recordInto(
  target: string,
  options: { maxBytes?: number; compare?: Parameters<typeof startRecorder>[0]['compare'] } = {},
): Promise<{ recorder: Recorder; out: string; notes: string[] }> {
  const out = await freshDir();
  const notes: string[] = [];
  const recorder = await startRecorder({
    target: new URL(target),
    out,
    host: '127.0.0.1',
    port: 0,
    maxBytes: options.maxBytes ?? 16 * 1024 * 1024,
    note: (line) => notes.push(line),
    ...(options.compare ? { compare: options.compare } : {}),
  });
  return { recorder, out, notes };
}

/** The recording's HAR, parsed. */
export const harOf = async (out: string): Promise<Har> => JSON.parse(await readFile(join(out, 'recording.har'), 'utf8')) as Har;

/** Every file of a folder, by path relative to it, as bytes. */
export async function filesOf(dir: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name);
      files.set(path.slice(dir.length + 1), await readFile(path));
    }
  return files;
}

/** Every text a folder holds: each file's, and each entry's of each ZIP (inflated), by name. */
export async function textsOf(dir: string): Promise<Map<string, string>> {
  const texts = new Map<string, string>();
  for (const [path, bytes] of await filesOf(dir)) {
    texts.set(path, bytes.toString('latin1'));
    if (path.endsWith('.zip'))
      for (const [name, data] of Object.entries(unzipSync(new Uint8Array(bytes))))
        texts.set(`${path}!${name}`, Buffer.from(data).toString('utf8'));
  }
  return texts;
}

/** JSON headers with a session key. */
export const jsonHeaders = (key = 'fakehands-dev-key') => ({ 'content-type': 'application/json', 'X-Session-API-Key': key });

/** The body that starts a conversation on an agent server. */
export const startBody = (apiKey = 'sk-any') => ({
  agent: { kind: 'Agent', llm: { model: 'openai/fakehands', api_key: apiKey } },
  workspace: { working_dir: '/tmp/fakehands-record-work' },
});

/** Starts a conversation through `url` and runs the agent to its end; its id. */
export async function runConversation(url: string, headers: Record<string, string> = jsonHeaders()): Promise<string> {
  const created = await fetch(`${url}/api/conversations`, { method: 'POST', headers, body: JSON.stringify(startBody()) });
  const { id } = (await created.json()) as { id: string };
  await fetch(`${url}/api/conversations/${id}/events`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ role: 'user', content: [{ type: 'text', text: 'Please say hello' }], run: true }),
  });
  for (let i = 0; i < 100; i++) {
    const info = (await (await fetch(`${url}/api/conversations/${id}`, { headers })).json()) as { execution_status: string };
    if (info.execution_status === 'finished') break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return id;
}

/** The frames a socket receives until `quietMs` pass without one (text, as sent), and how it closed. */
export async function socketFrames(
  url: string,
  quietMs = 300,
): Promise<{ frames: string[]; close: { code: number; reason: string } | null }> {
  const socket = new WebSocket(url);
  const frames: string[] = [];
  let close: { code: number; reason: string } | null = null;
  await new Promise<void>((resolve) => {
    let timer = setTimeout(resolve, quietMs * 3);
    socket.on('message', (data) => {
      frames.push(String(data));
      clearTimeout(timer);
      timer = setTimeout(resolve, quietMs);
    });
    socket.on('close', (code, reason) => {
      close = { code, reason: String(reason) };
      clearTimeout(timer);
      resolve();
    });
    socket.on('error', () => resolve());
  });
  if (socket.readyState === WebSocket.OPEN) socket.close();
  return { frames, close };
}
