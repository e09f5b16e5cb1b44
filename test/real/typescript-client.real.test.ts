/**
 * The official TypeScript client (`@openhands/typescript-client`) against the real agent server
 * and against the fake's agent host: every method of its agent-server clients (listed from the
 * package itself, so a method a new version adds fails the coverage test until it is called or
 * skipped with its reason) is called with the same arguments on both; each call's outcome (its
 * result, or the HTTP status it failed with) and the shape of what it answered are compared
 * (`src/real/compare.ts`). Every difference is fixed in the fake or declared in
 * src/real/declared.ts with its reason. The calls: `typescript-client-calls.ts` and
 * `typescript-client-conversation-calls.ts`.
 */
// First: the client's socket looks for `require('ws')` when it is loaded.
import './typescript-client-sockets.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRealAgentServer } from '../../src/real/servers.js';
import type { RealServer } from '../../src/real/processes.js';
import { REAL_PACKAGES } from '../../src/real/provision.js';
import { startLlmServer, type LlmServer } from '../../src/server/llm-server.js';
import { startFakeServers, type FakeServers } from '../../src/server/start.js';
import { call, compareOutcomes, compareServer, until, writeFacts } from './support.js';
import { hostCalls, type Outcome, recorder, type Side } from './typescript-client-calls.js';
import { CLIENT_SCRIPTS, conversationCalls } from './typescript-client-conversation-calls.js';
import { declaredClientMethods } from './typescript-client-methods.js';

compareServer('agent server');

/** The methods not called, each with why: none sends a request this run can compare. */
const SKIPPED: ReadonlyMap<string, string> = new Map([
  ['workspace.downloadAndSave', 'browser-only: it saves the download through a DOM anchor (document.createElement)'],
  ['state.updateStateFromEvent', 'applies a socket event to the local cache; no request'],
  ['state.createStateUpdateCallback', 'makes a local callback; no request'],
  ['state.setAgentStatus', 'sets the local cache; no request'],
  ['events.addEvent', 'adds to the local cache; no request'],
  ['events.append', 'adds to the local cache; no request'],
  ['events.createDefaultCallback', 'makes a local callback; no request'],
]);
/** Why a method is not called, or `undefined` when it is: a client's `close` sends nothing (`remote.close`, which stops its socket, is called). */
const skipReason = (method: string) =>
  SKIPPED.get(method) ?? (method.endsWith('.close') && method !== 'remote.close' ? 'closes the client locally; no request' : undefined);

let llm: LlmServer;
let real: RealServer;
let fakeServers: FakeServers;
const sides = {} as Record<'real' | 'fake', Side>;
const outcomes = { real: new Map<string, Outcome>(), fake: new Map<string, Outcome>() };

beforeAll(async () => {
  llm = await startLlmServer({ scripts: CLIENT_SCRIPTS });
  [real, fakeServers] = await Promise.all([
    startRealAgentServer({ log: (line) => process.stderr.write(`${line}\n`) }),
    startFakeServers({ fake: { fixture: 'empty', timings: 'instant', agentScripts: CLIENT_SCRIPTS } }),
  ]);
  // The fake's agent server is the one a RUNNING sandbox exposes, with that sandbox's key.
  const app = { side: 'fake' as const, url: fakeServers.url, key: 'unused' };
  const created = await call(app, 'POST', '/api/v1/sandboxes', {});
  const id = (created.body as { id: string }).id;
  const running = await until(
    () => call(app, 'GET', `/api/v1/sandboxes?id=${id}`),
    (a) => (a.body as { status?: string }[])[0]?.status === 'RUNNING',
  );
  const fakeKey = (running.body as { session_api_key: string }[])[0]!.session_api_key;
  // One folder of this machine (the real server's files are its own): the same path on both sides.
  const workDir = mkdtempSync(join(tmpdir(), 'fakehands-real-client-'));
  sides.real = { host: real.url, key: real.key!, workDir, llmUrl: llm.url };
  sides.fake = { host: fakeServers.agentUrl, key: fakeKey, workDir, llmUrl: llm.url };
}, 600_000);

afterAll(async () => {
  // To read a difference: FAKEHANDS_REAL_CLIENT_OUTCOMES=FILE writes what each call answered on each side.
  const dump = process.env.FAKEHANDS_REAL_CLIENT_OUTCOMES;
  if (dump)
    writeFileSync(dump, JSON.stringify({ real: Object.fromEntries(outcomes.real), fake: Object.fromEntries(outcomes.fake) }, null, 1));
  writeFacts(import.meta.filename, { 'agent server': REAL_PACKAGES['agent-server'].version });
  await Promise.all([real?.stop(), fakeServers?.close(), llm?.close()]);
});

/** Runs `calls` on both sides (at once: each side's calls in their order); the undeclared differences of the names starting with `area`. */
async function compareArea(calls: (side: Side, record: ReturnType<typeof recorder>) => Promise<void>, areas: readonly string[]) {
  await Promise.all((['real', 'fake'] as const).map((s) => calls(sides[s], recorder(outcomes[s]))));
  const names = [...new Set([...outcomes.real.keys(), ...outcomes.fake.keys()])].filter((n) => areas.some((a) => n.startsWith(`${a}.`)));
  const missing = { outcome: 'not called', value: null };
  return names
    .sort()
    .flatMap((name) =>
      compareOutcomes(`typescript-client ${name}`, outcomes.real.get(name) ?? missing, outcomes.fake.get(name) ?? missing),
    );
}

/** The areas of `hostCalls`: `AgentServerClient`'s sub-clients but its conversation client. */
const HOST_AREAS = [
  ...['server', 'settings', 'profiles', 'metaProfiles', 'agentProfiles', 'llm', 'skills', 'plugins', 'hooks', 'tools'],
  ...['subAgents', 'mcp', 'desktop', 'vscode', 'files', 'workspaces', 'bash', 'shared'],
];
/** The areas of `conversationCalls`. */
const CONVERSATION_AREAS = ['conversations', 'manager', 'remote', 'state', 'events', 'workspace'];

describe('@openhands/typescript-client host-wide methods (AgentServerClient but conversations)', () => {
  it('answer alike on the real agent server and the fake', async () => {
    expect(await compareArea(hostCalls, HOST_AREAS)).toEqual([]);
  });
});

describe('@openhands/typescript-client conversation methods (ConversationClient, ConversationManager, RemoteConversation, RemoteState, RemoteEventsList, RemoteWorkspace)', () => {
  it('answer alike on the real agent server and the fake', async () => {
    expect(await compareArea(conversationCalls, CONVERSATION_AREAS)).toEqual([]);
  });
});

describe('@openhands/typescript-client coverage', () => {
  it('every agent-server method the client declares (its .d.ts files) is called on both sides, or skipped with its reason', () => {
    const called = [...outcomes.real.keys()];
    const uncovered = declaredClientMethods().filter((m) => !skipReason(m) && !called.some((n) => n === m || n.startsWith(`${m} `)));
    expect(uncovered).toEqual([]);
    // No skip names a method the client no longer declares.
    expect([...SKIPPED.keys()].filter((m) => !declaredClientMethods().includes(m))).toEqual([]);
    expect([...outcomes.real.keys()].sort()).toEqual([...outcomes.fake.keys()].sort());
    expect(called.length).toBeGreaterThan(190);
  });
});
