/**
 * `fakehands record --compare`: the client is answered by the target (a fake standing in for the
 * real agent server, a fault making it differ), and each request is asked, in the background, of an
 * in-process fake too; each difference is reported in the differential suite's format
 * (`scope › METHOD path › status` or `› body › path`, real and fake) on stdout and in
 * differences.jsonl. Ids the target handed out are followed to the ones the fake handed out.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveCompare } from '../../src/record/compare.js';
import { startRecorder } from '../../src/record/recorder.js';
import type { ProxiedExchange } from '../../src/record/proxy.js';
import { Scrubber } from '../../src/record/scrub.js';
import { createFakeCore } from '../../src/fake.js';
import type { FakeServers } from '../../src/server/start.js';
import { BIN } from '../support/cli.js';
import { freshDir, jsonHeaders, socketFrames, startBody, startTarget } from './support.js';

let target: FakeServers;

beforeAll(async () => {
  target = await startTarget();
  target.fake.faults.add({ kind: 'status', method: 'GET', path: '/api/conversations/count', status: 503, sticky: true });
});

afterAll(async () => {
  await target.close();
});

describe('record --compare', () => {
  it("answers from the target, and reports each difference from the fake's answer in the suite's format", async () => {
    const out = await freshDir();
    const printed: string[] = [];
    const compare = await liveCompare({ kind: 'agent', agentScripts: [], out, print: (line) => printed.push(line) });
    const recorder = await startRecorder({
      target: new URL(target.agentUrl),
      out,
      host: '127.0.0.1',
      port: 0,
      maxBytes: 1 << 24,
      note: () => undefined,
      compare,
    });
    const created = await fetch(`${recorder.url}/api/conversations`, {
      method: 'POST',
      headers: jsonHeaders(),
      body: JSON.stringify(startBody()),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect((await fetch(`${recorder.url}/api/conversations/${id}`, { headers: jsonHeaders() })).status).toBe(200);
    const count = await fetch(`${recorder.url}/api/conversations/count`, { headers: jsonHeaders() });
    expect(count.status).toBe(503);
    const summary = await recorder.close();
    expect(printed).toEqual(['difference: agent server › GET /api/conversations/count › status: real 503, fake 200']);
    const lines = (await readFile(join(out, 'differences.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toEqual([
      { id: 'agent server › GET /api/conversations/count › status', real: '503', fake: '200', agree: false, declared: null },
    ]);
    // The create and the read of the conversation the target made agree: the fake's own id stood in for the target's.
    expect(summary).toMatch(/ compare: (\d+)\/(\d+) facts agree, 1 difference\(s\) \(0 declared\) in .*differences\.jsonl$/);
    const [, agree, total] = /compare: (\d+)\/(\d+)/.exec(summary)!.map(Number);
    expect(total! - agree!).toBe(1);
    expect(total).toBeGreaterThan(50);
  });

  it('is said by the command, which finds out the target is an agent server', async () => {
    const out = await freshDir();
    const proc = spawn(process.execPath, [BIN, 'record', '--target', target.agentUrl, '--out', out, '--compare'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    proc.stdout.on('data', (d: Buffer) => {
      stdout += d;
    });
    try {
      for (let i = 0; i < 300 && !stdout.includes('comparing'); i++) await new Promise((r) => setTimeout(r, 50));
      expect(stdout).toContain(
        `comparing every answer with an in-process fake (agent server); differences in ${join(out, 'differences.jsonl')}\n`,
      );
      const url = /listening on (\S+)/.exec(stdout)![1]!;
      expect((await fetch(`${url}/api/conversations/count`, { headers: jsonHeaders() })).status).toBe(503);
      for (let i = 0; i < 100 && !stdout.includes('difference:'); i++) await new Promise((r) => setTimeout(r, 50));
      expect(stdout).toContain('difference: agent server › GET /api/conversations/count › status: real 503, fake 200\n');
    } finally {
      proc.kill('SIGTERM');
      await new Promise((resolve) => proc.on('close', resolve));
    }
    expect(stdout).toMatch(/compare: 0\/1 facts agree, 1 difference\(s\) \(0 declared\)/);
  });
});

describe('record --compare on a socket', () => {
  /** Records a conversation run while a socket to it is open, the target playing `scripts`; what compare printed and its summary. */
  async function compareRun(scripts: unknown[]): Promise<{ printed: string[]; summary: string; out: string; frames: number }> {
    const runner = await startTarget({ agentScripts: scripts as never });
    const out = await freshDir();
    const printed: string[] = [];
    const recorder = await startRecorder({
      target: new URL(runner.agentUrl),
      out,
      host: '127.0.0.1',
      port: 0,
      maxBytes: 1 << 24,
      note: () => undefined,
      compare: await liveCompare({ kind: 'agent', agentScripts: [], out, print: (line) => printed.push(line) }),
    });
    const created = await fetch(`${recorder.url}/api/conversations`, {
      method: 'POST',
      headers: jsonHeaders(),
      body: JSON.stringify(startBody()),
    });
    const { id } = (await created.json()) as { id: string };
    const listening = socketFrames(`${recorder.url.replace(/^http/, 'ws')}/sockets/events/${id}`, 400);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await fetch(`${recorder.url}/api/conversations/${id}/events`, {
      method: 'POST',
      headers: jsonHeaders(),
      body: JSON.stringify({ role: 'user', content: [{ type: 'text', text: 'Please say hello' }], run: true }),
    });
    const { frames } = await listening;
    const summary = await recorder.close();
    await runner.close();
    return { printed, summary, out, frames: frames.length };
  }

  it("compares the events the socket sent with the fake's, position by position: none differ when both play the same agent", async () => {
    const { printed, summary, frames } = await compareRun([]);
    expect(frames).toBeGreaterThan(5);
    expect(printed).toEqual([]);
    expect(summary).toMatch(/ compare: (\d+)\/\1 facts agree, 0 difference\(s\)/);
  });

  it("reports each event that differs in the suite's format, when the target's agent plays another script", async () => {
    const { printed, out } = await compareRun([{ match: 'say hello', steps: [{ message: 'Hi.' }] }]);
    const step = 'difference: agent server › socket /sockets/events/{id} › frames';
    // The target's agent answered; the fake's, playing its built-in script, ran the terminal and the editor first.
    expect(printed).toEqual([
      `${step} › length: real 8, fake 12`,
      `${step} › [5]: real MessageEvent:agent, fake ActionEvent:agent:terminal`,
      `${step} › [6]: real state:execution_status=finished, fake ObservationEvent:environment:terminal`,
      `${step} › [7]: real state:full_state=finished, fake ActionEvent:agent:file_editor`,
      `${step} › [8]: real absent, fake ObservationEvent:environment:file_editor`,
      `${step} › [9]: real absent, fake state:execution_status=finished`,
      `${step} › [10]: real absent, fake MessageEvent:agent`,
      `${step} › [11]: real absent, fake state:full_state=finished`,
    ]);
    const lines = (await readFile(join(out, 'differences.jsonl'), 'utf8')).trim().split('\n');
    expect(JSON.parse(lines[0]!)).toEqual({
      id: 'agent server › socket /sockets/events/{id} › frames › length',
      real: '8',
      fake: '12',
      agree: false,
      declared: null,
    });
  });
});

describe('record --compare in front of an app server', () => {
  it("follows a sandbox id the real server made (base62, as a process sandbox's is) to the fake's own in later requests", async () => {
    // Another fake stands in for the real app server, its sandbox's id swapped for one of the real form.
    const realApp = await createFakeCore({ fixture: 'empty', timings: 'instant', auth: 'none' });
    const realId = '5hvKKbgdHRjRC3HmRFpTBq';
    let madeId = '';
    const exchange = async (method: string, path: string): Promise<ProxiedExchange> => {
      const answer = await realApp.fetch(new Request(`http://localhost:3000${path.replace(realId, madeId)}`, { method }));
      const text = await answer.text();
      madeId ||= (JSON.parse(text) as { id: string }).id;
      const body = Buffer.from(text.replaceAll(madeId, realId));
      return {
        ...{ method, path, requestHeaders: [], requestBody: Buffer.alloc(0), requestSize: 0, status: answer.status, statusText: '' },
        ...{
          responseHeaders: [['content-type', 'application/json']],
          responseBody: body,
          responseSize: body.length,
          startedAt: 0,
          durationMs: 0,
        },
      };
    };
    const printed: string[] = [];
    const check = (await liveCompare({ kind: 'app', agentScripts: [], out: await freshDir(), print: (line) => printed.push(line) }))(
      new Scrubber(),
    );
    check.check(await exchange('POST', '/api/v1/sandboxes'), 'target');
    check.check(await exchange('GET', `/api/v1/sandboxes?id=${realId}`), 'target');
    check.check(await exchange('POST', `/api/v1/sandboxes/${realId}/pause`), 'target');
    const summary = await check.close();
    expect(printed).toEqual([]);
    expect(summary).toMatch(/^compare: (\d+)\/\1 facts agree, 0 difference\(s\)/);
  });
});
