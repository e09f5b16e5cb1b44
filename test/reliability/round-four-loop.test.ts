/**
 * Reliability round four, the event loop (issue 29, finding 11): the answers that grew with the
 * data (a workspace archive, the legacy list, which has no upper bound on `limit`) are made in
 * pieces with the event loop served between them. These are functional checks (the pieces, the
 * bytes, the order); how long health waits under each load is measured in bench/ (section 11).
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFake } from '../../src/index.js';
import { zipArchive, zipPieces, ZIP_SLICE_BYTES } from '../../src/domain/agent/zip.js';
import { serve, startConversation } from '../agent-server/support.js';

const PROJECT = '/home/openhands/workspace';

/** Text of `size` characters, different for each `seed`. */
const text = (size: number, seed: string) => `${seed}:`.padEnd(size, `${seed}-0123456789abcdef`);

describe('zipPieces (finding 11)', () => {
  it('writes the same bytes as zipArchive, no piece of file data larger than ZIP_SLICE_BYTES, yielding between slices', async () => {
    const files = { 'a.txt': text(2.5 * ZIP_SLICE_BYTES, 'a'), 'b/ü.md': text(10, 'b'), 'empty.txt': '' };
    let turns = 0;
    const pieces: Uint8Array[] = [];
    for await (const piece of zipPieces(files, Date.UTC(2025, 10, 3, 9), async () => {
      turns++;
    }))
      pieces.push(piece.slice());
    const whole = zipArchive(files, Date.UTC(2025, 10, 3, 9));
    expect(Buffer.concat(pieces).equals(Buffer.from(whole))).toBe(true);
    // a.txt: 3 data slices; the other two files: one or none. Headers are small pieces of their own.
    expect(pieces.filter((p) => p.length === ZIP_SLICE_BYTES)).toHaveLength(2);
    expect(Math.max(...pieces.map((p) => p.length))).toBe(ZIP_SLICE_BYTES);
    // A turn after each CRC slice and after each data slice: 3 + 3 for a.txt, 1 + 1 for b/ü.md.
    expect(turns).toBe(8);
  });
});

describe('GET /api/v1/app-conversations/{id}/download (finding 11)', () => {
  it('streams a workspace of uploaded megabytes chunked (no Content-Length), and unzip reads back every file', async () => {
    const cli = await serve(['--timings', 'instant']);
    const c = await startConversation(cli);
    const uploads: Record<string, string> = {};
    for (let i = 0; i < 3; i++) {
      const content = text(900 * 1024, `file${i}`);
      uploads[`big/file${i}.txt`] = content;
      const form = new FormData();
      form.append('file', new Blob([content], { type: 'text/plain' }), `file${i}.txt`);
      const uploaded = await fetch(`${cli.agentUrl}/api/file/upload?path=${encodeURIComponent(`${PROJECT}/big/file${i}.txt`)}`, {
        method: 'POST',
        headers: { 'x-session-api-key': c.session_api_key },
        body: form,
      });
      expect(uploaded.status).toBe(200);
    }
    const response = await fetch(`${cli.url}/api/v1/app-conversations/${c.id}/download`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('transfer-encoding')).toBe('chunked');
    expect(response.headers.get('content-length')).toBeNull();
    const file = join(await mkdtemp(join(tmpdir(), 'fakehands-download-')), 'conversation.zip');
    await writeFile(file, Buffer.from(await response.arrayBuffer()));
    const names = execFileSync('unzip', ['-Z1', file]).toString().trim().split('\n');
    expect(names).toEqual(expect.arrayContaining(['meta.json', 'workspace/PLAN.md', ...Object.keys(uploads).map((p) => `workspace/${p}`)]));
    for (const [path, content] of Object.entries(uploads)) {
      expect(execFileSync('unzip', ['-p', file, `workspace/${path}`], { maxBuffer: 8 * 1024 * 1024 }).toString()).toBe(content);
    }
    expect(execFileSync('unzip', ['-t', file]).toString()).toContain('No errors detected');
  });
});

describe('GET /api/conversations with a long list (finding 11)', () => {
  it('answers 1,300 conversations of both versions in pieces, newest first, the same list as the one-piece answer', async () => {
    const fake = await createFake({ fixture: 'empty', timings: 'instant', auth: 'none' });
    const post = (path: string) =>
      fake.fetch(
        new Request(`http://localhost:3000${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
      );
    for (let i = 0; i < 1200; i += 100) {
      const answers = await Promise.all(Array.from({ length: 100 }, () => post('/api/conversations')));
      for (const answer of answers) expect(answer.status).toBe(200);
    }
    for (let i = 0; i < 100; i++) expect((await post('/api/v1/app-conversations')).status).toBe(200);
    const response = await fake.fetch(new Request('http://localhost:3000/api/conversations?limit=5000'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    const body = (await response.json()) as {
      results: { conversation_id: string; created_at: string; conversation_version: string }[];
      next_page_id: string | null;
    };
    expect(body.results).toHaveLength(1300);
    expect(body.next_page_id).toBeNull();
    expect(body.results.filter((r) => r.conversation_version === 'V1')).toHaveLength(100);
    expect(new Set(body.results.map((r) => r.conversation_id)).size).toBe(1300);
    const created = body.results.map((r) => r.created_at);
    expect(created).toEqual([...created].sort().reverse());
    // The same conversations, in the same order, as the list the service answers in one piece.
    expect(body).toEqual(await fake.service.listConversations({ limit: 5000 }));
    // Written in pieces: the opening, one per 500 conversations, the closing.
    const pieces: string[] = [];
    for await (const piece of (await fake.service.listConversationsText({ limit: 5000 })).pieces) pieces.push(piece);
    expect(pieces).toHaveLength(1 + 3 + 1);
    expect(JSON.parse(pieces.join(''))).toEqual(body);
    // A page of a long list still pages: 1,000 of each source, merged and cut to 1,000, with a cursor.
    const page = (await (await fake.fetch(new Request('http://localhost:3000/api/conversations?limit=1000'))).json()) as {
      results: unknown[];
      next_page_id: string | null;
    };
    expect(page.results).toEqual(body.results.slice(0, 1000));
    expect(page.next_page_id).not.toBeNull();
  });
});
