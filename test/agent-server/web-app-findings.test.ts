/**
 * What the Nov 2025 OpenHands web app (frontend/ of OpenHands/OpenHands at d6fab19, Nov 15 2025)
 * found against the fake (issue 32), each held here against the real source it copies:
 * - the edit shows in git changes when its action is published: the client refetches git changes
 *   when a `FileEditorAction` arrives (`frontend/src/utils/cache-utils.ts`,
 *   `handleActionEventCacheInvalidation`), and the real tool edits at once after publishing it
 *   (openhands-sdk `agent/agent.py`: the `ActionEvent` goes out, then the tool runs);
 * - the saved `confirmation_mode` applies to new conversations (`openhands/app_server/
 *   app_conversation/live_status_app_conversation_service.py`,
 *   `_build_start_conversation_request_for_user`: `AlwaysConfirm()` when the user's
 *   `confirmation_mode`, else `NeverConfirm()`);
 * - a failed sandbox's socket says why, where the client shows a close reason
 *   (`frontend/src/contexts/conversation-websocket-context.tsx`, `onClose`: "Connection lost:
 *   {reason}"), instead of a wrong-key 4001;
 * - the `VSCODE` URL answers: the real one's form (`openhands/app_server/sandbox/
 *   docker_sandbox_service.py`: `{url}/?tkn={token}&folder={working dir}`), read by the client as
 *   the iframe's address (`frontend/src/hooks/query/use-unified-vscode-url.ts`), leads to a page on
 *   the agent host that says it is the fake's editor.
 */
import { describe, expect, it } from 'vitest';
import { createFake, type FakeOptionsInput } from '../../src/index.js';
import { stoppedReason } from '../../src/domain/sandboxes/session-keys.js';
import type { SandboxRecord } from '../../src/schemas/records.js';
import { describe as name, openSocket, serve, startConversation } from './support.js';

const APP = 'http://localhost:3000';
const AGENT = 'http://localhost:3001';
/** The realistic run: 10 s, its steps at fractions of it (`default-script.ts`): the edit's action at 0.6, its observation at 0.8. */
const RUN_MS = 10_000;

/** A fake on a manual clock with realistic timings, and helpers on one conversation of it. */
async function rig(settings: Record<string, unknown> = {}, agentScripts: FakeOptionsInput['agentScripts'] = []) {
  const fake = await createFake({
    baseUrl: APP,
    agentUrl: AGENT,
    auth: 'none',
    fixture: 'empty',
    clock: 'manual',
    timings: 'realistic',
    agentScripts,
  });
  const call = async (url: string, init: RequestInit = {}) => {
    const response = await fake.fetch(new Request(url, init));
    return { status: response.status, body: (await response.json().catch(() => null)) as never };
  };
  const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
    call(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  if (Object.keys(settings).length > 0) expect((await post(`${APP}/api/settings`, settings)).status).toBe(200);
  const task = (await post(`${APP}/api/v1/app-conversations`, {})).body as { id: string };
  fake.clock.advance(60_000);
  const [ready] = (await call(`${APP}/api/v1/app-conversations/start-tasks?ids=${task.id}`)).body as { app_conversation_id: string }[];
  const [conversation] = (await call(`${APP}/api/v1/app-conversations?ids=${ready!.app_conversation_id}`)).body as {
    id: string;
    sandbox_id: string;
    session_api_key: string;
  }[];
  const { id, session_api_key: key } = conversation!;
  const headers = { 'x-session-api-key': key };
  const on = (path: string) => `${AGENT}/api/conversations/${id}${path}`;
  return {
    fake,
    call,
    conversation: conversation!,
    send: (text: string) => post(on('/events'), { role: 'user', content: [{ type: 'text', text }], run: true }, headers),
    respond: (accept: boolean) => post(on('/events/respond_to_confirmation'), { accept, reason: 'Not now' }, headers),
    events: async () => ((await call(on('/events/search'), { headers })).body as { items: Record<string, unknown>[] }).items,
    info: async () => (await call(on(''), { headers })).body as { execution_status: string; confirmation_policy: { kind: string } },
    changes: async () => (await call(`${AGENT}/api/git/changes?path=/workspace/project`, { headers })).body as unknown,
  };
}

describe('GET /api/git/changes while a run goes on (finding: the Changes tab lagged one turn)', () => {
  it('lists the edit from the moment its FileEditorAction is published, not once its observation is', async () => {
    const { fake, send, events, changes } = await rig();
    await send('Fix the flaky test');
    fake.clock.advance(0.6 * RUN_MS - 1);
    expect((await events()).map(name).at(-1)).toBe('ObservationEvent:TerminalObservation');
    expect(await changes()).toEqual([]);
    fake.clock.advance(1);
    // The client's refetch on this action (cache-utils.ts) now sees the edit.
    expect((await events()).map(name).at(-1)).toBe('ActionEvent:FileEditorAction');
    expect(await changes()).toEqual([{ status: 'ADDED', path: 'PLAN.md' }]);
  });

  it('lists a script\'s {"edit": true} from its action on too', async () => {
    const { fake, send, events, changes } = await rig({}, [{ match: 'edit', steps: [{ terminal: { command: 'ls' } }, { edit: true }] }]);
    await send('edit it');
    // Steps: running, ls and its output, the edit's action and observation (at 3/5 and 4/5 of the run), finished.
    fake.clock.advance(0.6 * RUN_MS - 1);
    expect(await changes()).toEqual([]);
    fake.clock.advance(1);
    expect((await events()).map(name).at(-1)).toBe('ActionEvent:FileEditorAction');
    expect(await changes()).toEqual([{ status: 'ADDED', path: 'PLAN.md' }]);
  });

  it('does not list an edit whose action waits for confirmation, lists it once accepted, and never a rejected one', async () => {
    const accepted = await rig({ confirmation_mode: true });
    await accepted.send('Fix the flaky test');
    accepted.fake.clock.advance(RUN_MS);
    await accepted.respond(true); // the terminal command
    accepted.fake.clock.advance(RUN_MS);
    expect((await accepted.events()).map(name).slice(-2)).toEqual([
      'ActionEvent:FileEditorAction',
      'execution_status=waiting_for_confirmation',
    ]);
    expect(await accepted.changes()).toEqual([]);
    await accepted.respond(true);
    expect(await accepted.changes()).toEqual([{ status: 'ADDED', path: 'PLAN.md' }]);

    const rejected = await rig({ confirmation_mode: true });
    await rejected.send('Fix the flaky test');
    rejected.fake.clock.advance(RUN_MS);
    await rejected.respond(true);
    rejected.fake.clock.advance(RUN_MS);
    await rejected.respond(false);
    expect((await rejected.events()).map(name).slice(-2)).toEqual(['execution_status=idle', 'UserRejectObservation']);
    expect(await rejected.changes()).toEqual([]);
  });
});

describe('POST /api/v1/app-conversations with confirmation_mode saved (finding: it had no effect on V1 conversations)', () => {
  it('starts the agent with AlwaysConfirm: its first action waits for the client (waiting_for_confirmation)', async () => {
    const { fake, send, events, info } = await rig({ confirmation_mode: true });
    expect((await info()).confirmation_policy).toEqual({ kind: 'AlwaysConfirm' });
    await send('Fix the flaky test');
    fake.clock.advance(RUN_MS);
    expect((await events()).map(name).slice(-2)).toEqual(['ActionEvent:TerminalAction', 'execution_status=waiting_for_confirmation']);
    expect((await info()).execution_status).toBe('waiting_for_confirmation');
  });

  it('starts it with NeverConfirm when the settings say false: the run goes to its end', async () => {
    const { fake, send, events, info } = await rig({ confirmation_mode: false });
    expect((await info()).confirmation_policy).toEqual({ kind: 'NeverConfirm' });
    await send('Fix the flaky test');
    fake.clock.advance(RUN_MS);
    expect((await events()).map(name).at(-1)).toBe('MessageEvent:assistant');
    expect((await info()).execution_status).toBe('finished');
  });
});

describe('the events socket with the key of a sandbox that stopped (finding: "Authentication failed" instead of the reason)', () => {
  it("closes with 1001 and the failed sandbox's status_detail as the reason", async () => {
    const cli = await serve(['--timings', 'instant']);
    const conversation = await startConversation(cli);
    const failed = await fetch(`${cli.url}/_fakehands/sandboxes/${conversation.sandbox_id}/fail`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ detail: 'Container exited with code 137 (out of memory)' }),
    });
    expect(failed.status).toBe(200);
    expect(await openSocket(cli.agentUrl, conversation.id, `session_api_key=${conversation.session_api_key}`).closed).toEqual({
      code: 1001,
      reason: 'Sandbox ERROR: Container exited with code 137 (out of memory)',
    });
  });

  it('closes with 1001 "Sandbox PAUSED" for a paused one', async () => {
    const cli = await serve(['--timings', 'instant']);
    const conversation = await startConversation(cli);
    expect((await fetch(`${cli.url}/api/v1/sandboxes/${conversation.sandbox_id}/pause`, { method: 'POST' })).status).toBe(200);
    expect(await openSocket(cli.agentUrl, conversation.id, `session_api_key=${conversation.session_api_key}`).closed).toEqual({
      code: 1001,
      reason: 'Sandbox PAUSED',
    });
  });

  it('cuts a long reason to the 123 bytes of a close frame, on a character boundary', () => {
    const sandbox = { status: 'ERROR', status_detail: `OOM ${'é'.repeat(100)}` } as unknown as SandboxRecord;
    const reason = stoppedReason(sandbox);
    expect(new TextEncoder().encode(reason).length).toBeLessThanOrEqual(123);
    expect(reason).toMatch(/^Sandbox ERROR: OOM é+\.\.\.$/);
  });
});

describe('the VSCODE exposed URL, GET /api/vscode/url and the editor page (finding: an iframe to a port nobody listens on)', () => {
  it("has the real form ({base}/?tkn=&folder=, never the session key) and leads to the fake's editor page on the agent host", async () => {
    const { fake, call, conversation } = await rig();
    const [sandbox] = (await call(`${APP}/api/v1/sandboxes?id=${conversation.sandbox_id}`)).body as {
      exposed_urls: { name: string; url: string }[];
    }[];
    const vscode = sandbox!.exposed_urls.find((u) => u.name === 'VSCODE')!.url;
    expect(vscode).toMatch(/^http:\/\/localhost:3001\/_fakehands\/vscode\/\?tkn=vsc-[0-9a-f]{8}&folder=\/[\w/]+$/);
    expect(vscode).not.toContain(conversation.session_api_key);
    const page = await fake.fetch(new Request(vscode));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await page.text();
    expect(html).toContain("fakehands' editor");
    expect(html).toContain(
      `Sandbox <code>${conversation.sandbox_id}</code>, folder <code>${new URL(vscode).searchParams.get('folder')}</code>`,
    );
    // The agent server's own route gives the same editor, on the folder asked.
    const url = (await call(`${AGENT}/api/vscode/url`, { headers: { 'x-session-api-key': conversation.session_api_key } })).body as {
      url: string;
    };
    expect(url).toEqual({ url: `${vscode.split('&folder=')[0]}&folder=workspace` });
  });

  it('escapes what the URL gives, and answers 403 for a token no sandbox has', async () => {
    const { fake, call, conversation } = await rig();
    const [sandbox] = (await call(`${APP}/api/v1/sandboxes?id=${conversation.sandbox_id}`)).body as {
      exposed_urls: { name: string; url: string }[];
    }[];
    const vscode = new URL(sandbox!.exposed_urls.find((u) => u.name === 'VSCODE')!.url);
    vscode.searchParams.set('folder', '<script>alert(1)</script>');
    const html = await (await fake.fetch(new Request(vscode))).text();
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<script>');
    vscode.searchParams.set('tkn', 'vsc-00000000');
    const refused = await fake.fetch(new Request(vscode));
    expect([refused.status, await refused.json()]).toEqual([403, { detail: 'Forbidden' }]);
  });
});
