/**
 * `fakehands record` when the target is down (one line that says so, and the client gets a 502
 * with FastAPI's `{"detail": ...}` body, a socket too) and under `--max-bytes` (the folder stays
 * under it: bodies stop first, then exchanges, each said once; the HAR stays valid).
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeServers } from '../../src/server/start.js';
import { BIN } from '../support/cli.js';
import { filesOf, harOf, jsonHeaders, recordInto, startTarget, freshDir } from './support.js';
import { spawn } from 'node:child_process';
import WebSocket from 'ws';

/** A port nothing listens on (bound, then released). */
const closedPort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

describe('a target that is down', () => {
  it('says so in one line, and answers a request 502 with a detail as the real server writes its errors', async () => {
    const port = await closedPort();
    const { recorder, notes, out } = await recordInto(`http://127.0.0.1:${port}`);
    const answer = await fetch(`${recorder.url}/api/conversations/search`);
    expect(answer.status).toBe(502);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(await answer.json()).toEqual({ detail: `Bad Gateway: http://127.0.0.1:${port} did not answer (ECONNREFUSED)` });
    await fetch(`${recorder.url}/api/conversations/count`);
    expect(notes).toEqual([`fakehands record: the target http://127.0.0.1:${port} is down (ECONNREFUSED); answering 502 until it is back`]);
    const refused = await new Promise<{ status: number; body: string }>((resolve) => {
      const socket = new WebSocket(`${recorder.url.replace(/^http/, 'ws')}/sockets/events/x`);
      socket.on('unexpected-response', (_request, response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => {
          body += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      });
    });
    expect(refused).toEqual({
      status: 502,
      body: JSON.stringify({ detail: `Bad Gateway: http://127.0.0.1:${port} did not answer (ECONNREFUSED)` }),
    });
    await recorder.close();
    const entries = (await harOf(out)).log.entries;
    expect(entries.map((e) => [e.response.status, e.comment])).toEqual([
      [502, 'the target did not answer (ECONNREFUSED): the proxy answered 502'],
      [502, 'the target did not answer (ECONNREFUSED): the proxy answered 502'],
      [502, 'the target did not answer (ECONNREFUSED): the proxy answered 502'],
    ]);
  });

  it('is said by the command on one line of stderr as soon as it starts, the address on stdout', async () => {
    const port = await closedPort();
    const out = await freshDir();
    const proc = spawn(process.execPath, [BIN, 'record', '--target', `http://127.0.0.1:${port}`, '--out', out], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (d: Buffer) => {
      stdout += d;
    });
    proc.stderr.on('data', (d: Buffer) => {
      stderr += d;
    });
    try {
      for (let i = 0; i < 300 && !stderr.includes('\n'); i++) await new Promise((r) => setTimeout(r, 50));
      expect(stderr).toBe(`fakehands record: the target http://127.0.0.1:${port} is down (ECONNREFUSED); answering 502 until it is back\n`);
      expect(stdout).toMatch(
        new RegExp(`^fakehands record listening on http://127\\.0\\.0\\.1:\\d+ \\(forwarding to http://127\\.0\\.0\\.1:${port}\\)\n`),
      );
    } finally {
      proc.kill('SIGTERM');
      await new Promise((resolve) => proc.on('close', resolve));
    }
    expect(stdout).toContain(`recorded 0 exchange(s) (0 socket(s)) and 0 conversation(s) into ${out}.`);
  });
});

describe('--max-bytes', () => {
  let target: FakeServers;
  beforeAll(async () => {
    target = await startTarget();
  });
  afterAll(async () => {
    await target.close();
  });

  it('keeps the folder under the limit: bodies stop, then exchanges, each said once, and the HAR stays valid', async () => {
    const maxBytes = 64 * 1024;
    const { recorder, notes, out } = await recordInto(target.agentUrl, { maxBytes });
    const title = 'x'.repeat(100);
    const created = (await (
      await fetch(`${recorder.url}/api/conversations`, {
        method: 'POST',
        headers: jsonHeaders(),
        body: JSON.stringify({ agent: { kind: 'Agent', llm: { model: 'm' } }, workspace: { working_dir: '/tmp' } }),
      })
    ).json()) as { id: string };
    for (let i = 0; i < 60; i++) {
      const answer = await fetch(`${recorder.url}/api/conversations/${created.id}`, {
        method: 'PATCH',
        headers: jsonHeaders(),
        body: JSON.stringify({ title: `${i} ${title}` }),
      });
      expect(answer.status).toBe(200);
      await fetch(`${recorder.url}/api/conversations/${created.id}`);
    }
    const summary = await recorder.close();
    const sizes = [...(await filesOf(out)).values()].reduce((n, bytes) => n + bytes.length, 0);
    expect(sizes).toBeLessThanOrEqual(maxBytes);
    // Each said once. Whether the conversation's archive, written after a pause, still fits depends on
    // when it is written: when it does not, that is said once too.
    expect(new Set(notes).size).toBe(notes.length);
    expect(notes.filter((line) => !line.endsWith("'s events are no longer written"))).toEqual([
      'fakehands record: --max-bytes 65536 reached: bodies are no longer recorded (exchanges still are)',
      'fakehands record: --max-bytes 65536 reached: nothing more is recorded (the proxy still forwards)',
    ]);
    expect(notes.filter((line) => line.endsWith("'s events are no longer written"))).toEqual(
      notes.length === 3 ? [`fakehands record: --max-bytes 65536 reached: conversation ${created.id}'s events are no longer written`] : [],
    );
    expect(summary).toMatch(/, \d+ not recorded \(--max-bytes 65536\)\)/);
    const entries = (await harOf(out)).log.entries;
    expect(entries[0]!.response.content.text).toContain('"id"');
    const bodiless = entries.filter((e) => e.response.content.comment === 'not recorded: --max-bytes 65536 reached');
    expect(bodiless.length).toBeGreaterThan(0);
    expect(bodiless.every((e) => e.response.content.text === undefined)).toBe(true);
  });
});
