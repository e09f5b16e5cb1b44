/**
 * No secret reaches a recording: a session key (header, socket URL, socket auth frame), a secret's
 * value (`PUT /api/settings/secrets`, and echoed later by a command), an LLM's `api_key`, an
 * `Authorization` header, cookies both ways. Markers are planted in a session through the proxy;
 * not one appears in any file of the folder, nor inside its ZIPs, while what they stood in is kept
 * masked (the recording stays readable).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { FakeServers } from '../../src/server/start.js';
import { Scrubber } from '../../src/record/scrub.js';
import { harOf, recordInto, runConversation, startBody, startTarget, textsOf } from './support.js';

const SESSION = 'marker-session-key-51c7';
const SECRET_VALUE = 'marker-secret-value-9d2e';
const LLM_KEY = 'marker-llm-api-key-4b1a';
const BEARER = 'marker-bearer-token-77aa';
const COOKIE = 'marker-cookie-value-3e9f';
const MARKERS = [SESSION, SECRET_VALUE, LLM_KEY, BEARER, COOKIE];

let target: FakeServers;
let out: string;
let texts: Map<string, string>;

beforeAll(async () => {
  target = await startTarget();
  const recording = await recordInto(target.agentUrl);
  out = recording.out;
  const url = recording.recorder.url;
  const headers = {
    'content-type': 'application/json',
    'X-Session-API-Key': SESSION,
    authorization: `Bearer ${BEARER}`,
    cookie: `oh_workspace_session_key=${COOKIE}; theme=dark`,
  };
  await fetch(`${url}/api/settings/secrets`, {
    method: 'PUT',
    headers,
    body: JSON.stringify({ name: 'MY_TOKEN', value: SECRET_VALUE, description: 'planted' }),
  });
  await fetch(`${url}/api/settings/secrets/MY_TOKEN`, { headers });
  await fetch(`${url}/api/bash/execute_bash_command`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ command: `echo ${SECRET_VALUE}` }),
  });
  await fetch(`${url}/api/auth/workspace-session`, { method: 'POST', headers });
  const created = await fetch(`${url}/api/conversations`, { method: 'POST', headers, body: JSON.stringify(startBody(LLM_KEY)) });
  expect(created.status).toBe(201);
  const id = await runConversation(url, headers);
  await fetch(`${url}/api/conversations/${id}/events/search?limit=100`, { headers });
  for (const query of [`?session_api_key=${SESSION}&resend_mode=all`, '']) {
    const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/sockets/events/${id}${query}`);
    await new Promise((resolve) => socket.once('open', resolve));
    if (query === '') socket.send(JSON.stringify({ session_api_key: SESSION }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    socket.close();
  }
  await new Promise((resolve) => setTimeout(resolve, 100));
  await recording.recorder.close();
  texts = await textsOf(out);
});

afterAll(async () => {
  await target.close();
});

describe('a recording of a session that carries secrets', () => {
  it('holds none of them, in any file or inside any ZIP', () => {
    expect([...texts.keys()].some((name) => name.includes('.zip!events/'))).toBe(true);
    const found = [...texts].flatMap(([name, text]) =>
      MARKERS.filter((marker) => text.includes(marker)).map((marker) => `${marker} in ${name}`),
    );
    expect(found).toEqual([]);
  });

  it('keeps what each secret stood in, masked: the header, the credential scheme, the cookie names, the secret name', async () => {
    const entries = (await harOf(out)).log.entries;
    const put = entries.find((e) => e.request.method === 'PUT')!;
    expect(JSON.parse(put.request.postData!.text!)).toEqual({ name: 'MY_TOKEN', value: '**********', description: 'planted' });
    const headers = Object.fromEntries(put.request.headers.map((h) => [h.name, h.value]));
    expect(headers['X-Session-API-Key']).toBe('**********');
    expect(headers.authorization).toBe('Bearer **********');
    expect(headers.cookie).toBe('oh_workspace_session_key=**********; theme=**********');
    expect(put.request.cookies).toEqual([
      { name: 'oh_workspace_session_key', value: '**********' },
      { name: 'theme', value: '**********' },
    ]);
    const session = entries.find((e) => e.request.url.endsWith('/api/auth/workspace-session'))!;
    expect(session.response.cookies.map((c) => c.name)).toEqual(['oh_workspace_session_key']);
    expect(session.response.cookies[0]!.value).toBe('**********');
    const socket = entries.find((e) => e._resourceType === 'websocket' && e.request.url.includes('session_api_key'))!;
    expect(new URL(socket.request.url).searchParams.get('session_api_key')).toBe('**********');
    const auth = entries.find((e) => e._resourceType === 'websocket' && !e.request.url.includes('session_api_key'))!;
    expect(JSON.parse(auth._webSocketMessages!.find((m) => m.type === 'send')!.data)).toEqual({ session_api_key: '**********' });
  });

  it('masks a secret value wherever it shows up after it was seen: a command that echoes it', async () => {
    const entries = (await harOf(out)).log.entries;
    const bash = entries.find((e) => e.request.url.endsWith('/api/bash/execute_bash_command'))!;
    expect(JSON.parse(bash.request.postData!.text!)).toEqual({ command: 'echo **********' });
  });
});

describe('the masking of a recorded body', () => {
  it('keeps a count under a secret-looking name (openhands/sdk/llm/utils/metrics.py TokenUsage.per_turn_token) and masks the credential beside it', () => {
    const scrubber = new Scrubber();
    const usage = { accumulated_token_usage: { per_turn_token: 42, prompt_tokens: 7 }, api_key: 'sk-beside-the-count' };
    expect(scrubber.json(usage, '/api/conversations/x/events/search', 'response')).toEqual({
      accumulated_token_usage: { per_turn_token: 42, prompt_tokens: 7 },
      api_key: '**********',
    });
  });
});
