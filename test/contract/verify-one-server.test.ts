/**
 * One `fakehands serve` with its default (realistic) timings serves both `fakehands verify` and
 * `fakehands verify --messages`: the HTTP provider states move a fakehands provider's clock while
 * they wait (POST /_fakehands/clock), so a sandbox's start and an agent's 10-second run pass in a
 * few polls, while the message states, which need a run in flight to interrupt, keep real time.
 * Against any other provider (a real server) nothing is moved.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMessageVerify } from '../../src/pact/messages.js';
import { providerClockNudge } from '../../src/pact/provider-states.js';
import { CONTRACTS_DIR, verifyProvider } from '../../src/pact/verify.js';
import type { FakeServers } from '../../src/server.js';

const SERVER_ENTRY = 'fakehands/server';
const { startFakeServers } = (await import(/* @vite-ignore */ SERVER_ENTRY)) as typeof import('../../src/server.js');
const KEY = 'verify-key';

/** Copies of `files` (pact files in contracts/) holding only the interactions described, in a folder of their own. */
async function only(files: string[], descriptions: string[]): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'pacts-'));
  const out: string[] = [];
  for (const file of files) {
    const pact = JSON.parse(await readFile(join(CONTRACTS_DIR, file), 'utf8')) as { interactions: { description: string }[] };
    pact.interactions = pact.interactions.filter((i) => descriptions.includes(i.description));
    if (pact.interactions.length === 0) continue;
    out.push(join(dir, basename(file)));
    await writeFile(out.at(-1)!, JSON.stringify(pact));
  }
  return out;
}

describe('providerClockNudge', () => {
  it("moves a fakehands provider's clock 2 s forward at each call", async () => {
    const servers = await startFakeServers({ fake: { fixture: 'empty', apiKey: KEY, clock: 'manual', now: '2025-11-03T09:00:00.000Z' } });
    try {
      const nudge = await providerClockNudge(servers.url, KEY);
      expect(nudge).not.toBeNull();
      await nudge!();
      await nudge!();
      const time = await fetch(`${servers.url}/_fakehands/clock`, { headers: { 'x-session-api-key': KEY } });
      expect(await time.json()).toEqual({ now: '2025-11-03T09:00:04.000Z' });
    } finally {
      await servers.close();
    }
  });

  it('is null for a provider without the control API (a real server answers 404)', async () => {
    const server = createServer((_request, response) =>
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"Not Found"}'),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      expect(await providerClockNudge(`http://127.0.0.1:${(server.address() as { port: number }).port}`, KEY)).toBeNull();
    } finally {
      server.close();
    }
  });
});

describe('fakehands verify and verify --messages against one server with the default timings', { timeout: 120_000 }, () => {
  let servers: FakeServers;
  beforeAll(async () => {
    servers = await startFakeServers({ fake: { fixture: 'empty', apiKey: KEY } });
  });
  afterAll(() => servers?.close());

  it("sets up states that wait out a sandbox's start and an agent's 10-second run well within a 5-second state timeout", async () => {
    const pactFiles = await only(
      ['fakehands-client-conversation-sandbox-service.json', 'fakehands-client-openhands-agent-server.json'],
      ['a request for a running sandbox by id', 'a request for the conversation', 'a request to pause the agent'],
    );
    const lines: string[] = [];
    const result = await verifyProvider({
      baseUrl: servers.url,
      apiKey: KEY,
      pactFiles,
      stateTimeoutMs: 5_000,
      report: (line) => lines.push(line),
    });
    expect([result.ok, result.verified, result.failed, result.problems], lines.join('\n')).toEqual([true, 3, 0, []]);
  });

  it('then passes the message states that need a run in flight (pause, interrupt) on the same server', async () => {
    const pactFiles = await only(
      ['messages/fakehands-client-openhands-agent-server-events.json'],
      [
        'the interrupt of the run (InterruptEvent)',
        'the interrupted conversation is paused (execution_status paused)',
        'the pause (PauseEvent)',
      ],
    );
    let stdout = '';
    const code = await runMessageVerify({ baseUrl: servers.url, apiKey: KEY, pactFiles }, (text) => {
      stdout += text;
    });
    expect(stdout.trim().split('\n').at(-1)).toMatch(/^ {2}interactions: 3; passed: 3; failed: 0; frames received: \d+$/);
    expect(code).toBe(0);
  });
});
