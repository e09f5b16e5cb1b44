/**
 * `POST /_fakehands/replay/zip` with a real session's archive: a 10,000-event export is past the
 * server's 1 MiB body limit, and the route takes it (its own bound, `MAX_REPLAY_ZIP_BYTES`); one
 * event that inflates to tens of megabytes is refused before it is stored.
 */
import { connect } from 'node:net';
import { strToU8, zipSync } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_REPLAY_EVENT_BYTES, MAX_REPLAY_ZIP_BYTES } from '../../src/domain/agent/replay-zip.js';
import { startFakeServers, type FakeServers } from '../../src/server.js';

let servers: FakeServers | null = null;
afterEach(async () => {
  await servers?.close();
  servers = null;
});

const start = async () =>
  (servers = await startFakeServers({ fake: { fixture: 'empty', auth: 'none', clock: 'manual', timings: 'instant' } }));
const replayZip = (zip: Uint8Array, query = '?speed=instant') => {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(zip)], { type: 'application/zip' }), 'conversation.zip');
  return fetch(`${servers!.url}/_fakehands/replay/zip${query}`, { method: 'POST', body: form });
};
const conversations = async () =>
  ((await (await fetch(`${servers!.url}/_fakehands/state`)).json()) as { conversations: unknown[] }).conversations;

/** The event files of a session of `count` ordinary events: the user's message, then terminal commands and their output, then answers. */
function sessionZip(count: number): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  const at = (i: number) => new Date(Date.UTC(2025, 10, 3, 9, 0, 0) + i * 1000).toISOString().replace('Z', '');
  for (let i = 0; i < count; i++) {
    const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    const text = [{ type: 'text', text: `Step ${i}: ran the tests of module ${i % 97}; ${i % 7} failed, fixing them next.` }];
    const event =
      i % 3 === 0
        ? {
            id,
            timestamp: at(i),
            kind: 'MessageEvent',
            source: i === 0 ? 'user' : 'agent',
            llm_message: { role: i === 0 ? 'user' : 'assistant', content: text },
          }
        : i % 3 === 1
          ? {
              id,
              timestamp: at(i),
              kind: 'ActionEvent',
              source: 'agent',
              thought: text,
              action: { kind: 'TerminalAction', command: `npm test -- module-${i % 97}`, is_input: false, reset: false },
              tool_name: 'terminal',
              tool_call_id: `call_${i}`,
              tool_call: { id: `call_${i}`, name: 'terminal', arguments: '{}', origin: 'completion' },
              llm_response_id: `resp_${i}`,
              security_risk: 'LOW',
            }
          : {
              id,
              timestamp: at(i),
              kind: 'ObservationEvent',
              source: 'environment',
              tool_name: 'terminal',
              tool_call_id: `call_${i - 1}`,
              action_id: `00000000-0000-4000-8000-${String(i - 1).padStart(12, '0')}`,
              observation: {
                kind: 'TerminalObservation',
                content: [{ type: 'text', text: `PASS test/module-${i}.test.ts (${i % 13} tests)\n`.repeat(8) }],
                is_error: false,
                command: `npm test -- module-${i % 97}`,
                exit_code: 0,
                timeout: false,
              },
            };
    files[`conversation/events/event-${String(i).padStart(5, '0')}-${id}.json`] = strToU8(JSON.stringify(event));
  }
  files['conversation/base_state.json'] = strToU8('{}');
  return zipSync(files, { level: 1 });
}

describe('POST /_fakehands/replay/zip', () => {
  it("takes a real session's 10,000-event archive, past the server's 1 MiB body limit, and replays every event", async () => {
    await start();
    const zip = sessionZip(10_000);
    expect(zip.length).toBeGreaterThan(1024 * 1024);
    const response = await replayZip(zip);
    expect(response.status).toBe(201);
    const started = (await response.json()) as { conversation_url: string; session_api_key: string };
    const count = await fetch(`${started.conversation_url}/events/count`, { headers: { 'x-session-api-key': started.session_api_key } });
    // The new conversation's system prompt, its running state, the 10,000 events, and finished.
    expect(await count.json()).toBe(10_003);
  }, 60_000);

  it('refuses a 65 KB archive whose one event inflates to 63 MiB with a 422 at body.file, and stores nothing', async () => {
    await start();
    const text = new Uint8Array(63 * 1024 * 1024).fill(0x61);
    const head = strToU8('{"kind":"MessageEvent","source":"user","llm_message":{"role":"user","content":[{"type":"text","text":"');
    const tail = strToU8('"}]}}');
    text.set(head, 0);
    text.set(tail, text.length - tail.length);
    const zip = zipSync({ 'events/event-00000-a.json': text }, { level: 9 });
    expect(zip.length).toBeLessThan(70 * 1024);
    const response = await replayZip(zip);
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      detail: [
        {
          type: 'value_error',
          loc: ['body', 'file'],
          msg: `Value error, the archive's events/event-00000-a.json inflates to more than ${MAX_REPLAY_EVENT_BYTES} bytes (one event may hold at most that)`,
          input: null,
          ctx: { error: {} },
        },
      ],
    });
    expect(await conversations()).toEqual([]);
  }, 60_000);

  it('refuses an event that inflates past its bound whatever size the archive declares for it (a ZIP bomb that lies), small or large', async () => {
    await start();
    /** A one-event archive of `size` bytes of JSON (mostly a padding string), its declared size set to 100 in both headers. */
    const lying = (size: number) => {
      const text = new Uint8Array(size).fill(0x20);
      text.set(strToU8('{"kind":"MessageEvent","source":"user","pad":"'), 0);
      text.set(strToU8('"}'), size - 2);
      const zip = zipSync({ 'events/event-00000-a.json': text }, { level: 9 });
      const view = new DataView(zip.buffer);
      view.setUint32(22, 100, true);
      const directory = zip.length - 22 - (view.getUint32(zip.length - 22 + 12, true) as number);
      view.setUint32(directory + 24, 100, true);
      return zip;
    };
    const large = lying(32 * 1024 * 1024);
    expect(large.length).toBeGreaterThan(4096);
    const refused = await replayZip(large);
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { detail: { msg: string }[] }).detail[0]!.msg).toBe(
      `Value error, the archive's events/event-00000-a.json inflates to more than ${MAX_REPLAY_EVENT_BYTES} bytes (one event may hold at most that)`,
    );
    // A small entry is inflated into a buffer of the size it declares: what passes it is cut off, and reads as no JSON.
    const small = lying(2 * 1024 * 1024);
    expect(small.length).toBeLessThanOrEqual(4096);
    const cut = await replayZip(small);
    expect(cut.status).toBe(422);
    expect(((await cut.json()) as { detail: { msg: string }[] }).detail[0]!.msg).toBe(
      "Value error, the archive's events/event-00000-a.json is not JSON",
    );
    expect(await conversations()).toEqual([]);
  }, 60_000);

  it(`refuses an archive declared past ${MAX_REPLAY_ZIP_BYTES} bytes with 413 before reading it`, async () => {
    await start();
    const { port } = new URL(servers!.url);
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1');
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk;
      });
      socket.on('close', () => resolve(text));
      socket.write(
        `POST /_fakehands/replay/zip HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: ${MAX_REPLAY_ZIP_BYTES + 1}\r\n\r\n--x`,
      );
    });
    expect(answer).toMatch(/^HTTP\/1\.1 413[\s\S]*\{"detail":"Request body too large"\}$/);
    expect(await conversations()).toEqual([]);
  });
});
