/**
 * The events socket's message contracts: written by the consumer tests (`messages.ts`) exactly as
 * committed in contracts/messages/, then verified with the real `fakehands verify --messages`
 * against the standalone fake: the newest contract passes against the newest dialect and the Nov
 * 2025 contract against `--agent-server-version 1.1.0`; the Nov 2025 contract against the newest
 * fails naming exactly the renamed kinds' interactions and the field; the counts print last.
 */
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONSUMER_NAME } from '../../src/pact/verify.js';
import { MESSAGE_CONTRACTS_DIR } from '../../src/pact/messages.js';
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { asyncApiDocument } from '../../src/surfaces/agent-server/asyncapi.js';
import { BIN, runCli, startCli } from '../support/cli.js';
import { readmeBlocks } from '../support/readme.js';
import { messageProvider, writeMessageContracts } from './messages.js';

const KEY = 'verify-key';
const SERVER_EVENTS = 9;
const CLIENT_FRAMES = 2;
const file = (dialect?: string) => `${CONSUMER_NAME}-${messageProvider(dialect)}.json`;
const startProvider = (extra: string[] = []) =>
  startCli(['--quiet', '--timings', 'instant', '--fixture', 'empty', '--api-key', KEY, ...extra]);
const verify = (url: string, extra: string[] = []) => runCli(['verify', '--messages', '--base-url', url, '--api-key', KEY, ...extra]);

describe("the events socket's message contracts", () => {
  it("regenerate exactly the committed contracts/messages/ (one per dialect), one interaction per event kind and tool, and the client's frames", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fakehands-messages-'));
    expect(await writeMessageContracts(dir)).toBe(SERVER_EVENTS + CLIENT_FRAMES);
    expect(await writeMessageContracts(dir, '1.1.0')).toBe(SERVER_EVENTS + CLIENT_FRAMES);
    expect((await readdir(dir)).sort()).toEqual([file(), file('1.1.0')].sort());
    for (const name of [file(), file('1.1.0')]) {
      const written = JSON.parse(await readFile(join(dir, name), 'utf8')) as { interactions: { type: string }[] };
      expect(
        written,
        'the committed contracts differ from what the consumer tests write: regenerate contracts/messages/ and commit',
      ).toEqual(JSON.parse(await readFile(join(MESSAGE_CONTRACTS_DIR, name), 'utf8')));
      expect(written.interactions.map((i) => i.type)).toEqual(Array(SERVER_EVENTS + CLIENT_FRAMES).fill('Asynchronous/Messages'));
    }
    expect(await readFile(join(dir, file('1.1.0')), 'utf8')).toContain('"ExecuteBashAction"');
    expect(await readFile(join(dir, file()), 'utf8')).not.toContain('ExecuteBash');
  });
});

describe('fakehands verify --messages', { timeout: 240_000 }, () => {
  it("passes each dialect's contract against the fake speaking that dialect, the counts last", async () => {
    const newest = await startProvider();
    const ok = await verify(newest.url, ['--pact', join(MESSAGE_CONTRACTS_DIR, file())]);
    expect(ok.stdout.trimEnd().split('\n').at(-1)).toMatch(
      new RegExp(`^  interactions: ${SERVER_EVENTS}; passed: ${SERVER_EVENTS}; failed: 0; frames received: \\d+$`),
    );
    expect(ok.code).toBe(0);
    const nov2025 = await startProvider(['--agent-server-version', '1.1.0']);
    const old = await verify(nov2025.url, ['--pact', join(MESSAGE_CONTRACTS_DIR, file('1.1.0'))]);
    expect(old.stdout).toContain(`passed: ${SERVER_EVENTS}; failed: 0`);
    expect(old.code).toBe(0);
  });

  it('fails the Nov 2025 contract against the newest dialect naming exactly the renamed kinds and the field', async () => {
    const newest = await startProvider();
    const { code, stdout } = await verify(newest.url, ['--pact', join(MESSAGE_CONTRACTS_DIR, file('1.1.0'))]);
    expect(code).toBe(1);
    expect(stdout.split('\n').filter((line) => line.includes('FAILED'))).toEqual([
      '  FAILED: a terminal command (ExecuteBashAction: isActionEvent): field action.kind: expected "ExecuteBashAction", got "TerminalAction"',
      '  FAILED: its output (ExecuteBashObservation: isObservationEvent): field observation.kind: expected "ExecuteBashObservation", got "TerminalObservation"',
    ]);
    expect(stdout.trimEnd().split('\n').at(-1)).toMatch(
      new RegExp(`^  interactions: ${SERVER_EVENTS}; passed: ${SERVER_EVENTS - 2}; failed: 2; frames received: \\d+$`),
    );
  });
});

describe("the README's CI example for the event stream", { timeout: 240_000 }, () => {
  it('runs as written against the fake: the drift of the dialects, then verify --messages passing, the counts last', async () => {
    const cli = await startProvider();
    const dir = await mkdtemp(join(tmpdir(), 'fakehands-ci-'));
    await writeFile(
      join(dir, 'nov2025-asyncapi.json'),
      JSON.stringify(asyncApiDocument({ version: '0.0.0', host: '127.0.0.1:1', agentServerVersion: '1.1.0' })),
    );
    const block = readmeBlocks('sh').find((b) => b.includes('verify --messages'))!;
    const script = block
      .replaceAll('http://127.0.0.1:8000', cli.agentUrl)
      .replaceAll('http://127.0.0.1:3000', cli.url)
      .replaceAll('npx fakehands', `node ${BIN}`);
    const { stdout } = await promisify(execFile)('bash', ['-c', `set -e\n${script}`], {
      cwd: dir,
      env: { ...process.env, FAKEHANDS_API_KEY: KEY },
    });
    expect(stdout).toContain(
      '  renamed: ExecuteBashAction → TerminalAction\n  renamed: ExecuteBashObservation → TerminalObservation\nkinds renamed: 2; removed: 0; added: 0; fields changed: 0\nthe dialects differ\n',
    );
    expect(stdout.trimEnd().split('\n').at(-1)).toMatch(
      new RegExp(`^  interactions: ${SERVER_EVENTS}; passed: ${SERVER_EVENTS}; failed: 0; frames received: \\d+$`),
    );
  });
});
