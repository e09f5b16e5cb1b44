/**
 * Soak (`npm run soak`, a benchmark, not a test): bounded mixed load against the standalone server
 * for a few minutes, then a report of requests served, errors, and the server's resident memory at
 * start and end. Creates are paired with deletes, so the data set stays the same size and any
 * memory growth is the server's own (the journal and the fault list are capped).
 */
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { round, spawnServer } from './lib.js';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 180);
const WORKERS = Number(process.env.SOAK_WORKERS ?? 16);
const KEY = 'soak-key';
const headers = { 'x-session-api-key': KEY, 'content-type': 'application/json' };

async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** `SOAK_STATE_FILE=1` runs the soak with a `--state-file` in a temporary folder. */
const stateFile = process.env.SOAK_STATE_FILE ? join(await mkdtemp(join(tmpdir(), 'fakehands-soak-')), 'state.json') : null;
const server = await spawnServer([
  fileURLToPath(new URL('../bin/fakehands.js', import.meta.url)),
  'serve',
  '--port',
  '0',
  '--quiet',
  '--api-key',
  KEY,
  ...(stateFile ? ['--state-file', stateFile] : []),
]);
const url = server.url;
const call = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
};

const counts = { requests: 0, errors: 0, unexpected: 0 };
const statuses = new Map<number, number>();
const expect = (status: number, ok: number[]) => {
  counts.requests++;
  statuses.set(status, (statuses.get(status) ?? 0) + 1);
  if (!ok.includes(status)) counts.unexpected++;
};

/** One round of a UI-like session: list, create, pause, resume, start a conversation, clean up. */
async function session(): Promise<void> {
  const list = await call('GET', '/api/v1/sandboxes/search?limit=20');
  expect(list.status, [200]);
  const created = await call('POST', '/api/v1/sandboxes');
  expect(created.status, [200]);
  const id = (created.body as { id: string }).id;
  expect((await call('POST', `/api/v1/sandboxes/${id}/pause`)).status, [200]);
  expect((await call('POST', `/api/v1/sandboxes/${id}/resume`)).status, [200]);
  expect((await call('GET', `/api/v1/sandboxes?id=${id}`)).status, [200]);
  const conversation = await call('POST', '/api/conversations', { repository: 'a/b', git_provider: 'github' });
  expect(conversation.status, [200]);
  expect((await call('GET', '/api/v1/app-conversations/search?limit=5')).status, [200]);
  expect((await call('GET', '/api/v1/app-conversations/count')).status, [200]);
  expect((await call('POST', '/api/conversations', { repository: 5 })).status, [422]);
  expect((await call('POST', '/_fakehands/faults', { kind: 'status', path: '/api/v1/sandbox-specs/search', status: 503 })).status, [200]);
  expect((await call('GET', '/api/v1/sandbox-specs/search')).status, [200, 503]);
  expect((await call('GET', '/_fakehands/requests?limit=50')).status, [200]);
  expect((await call('DELETE', `/api/conversations/${(conversation.body as { conversation_id: string }).conversation_id}`)).status, [200]);
  expect((await call('DELETE', `/api/v1/sandboxes/${id}?sandbox_id=${id}`)).status, [200]);
}

console.log(`soak: ${SECONDS}s, ${WORKERS} concurrent sessions against ${url}${stateFile ? ` with --state-file ${stateFile}` : ''}`);
const startRss = await rssMb(server.proc.pid!);
const deadline = Date.now() + SECONDS * 1000;
const samples: number[] = [];
const sampler = setInterval(() => {
  void rssMb(server.proc.pid!).then((mb) => samples.push(mb));
}, 5000);
await Promise.all(
  Array.from({ length: WORKERS }, async () => {
    while (Date.now() < deadline) {
      try {
        await session();
      } catch {
        counts.errors++;
      }
    }
  }),
);
clearInterval(sampler);
const endRss = await rssMb(server.proc.pid!);
const state = (await call('GET', '/_fakehands/state')).body as { sandboxes: unknown[]; conversations: unknown[] };
const faults = (await call('GET', '/_fakehands/faults')).body as { faults: unknown[] };
const journal = (await call('GET', '/_fakehands/requests?limit=100000')).body as { requests: unknown[] };
await server.stop();

const firstQuarter = samples.slice(0, Math.max(1, samples.length >> 2));
const lastQuarter = samples.slice(-Math.max(1, samples.length >> 2));
const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
console.log(
  `requests served: ${counts.requests} (${round(counts.requests / SECONDS, 0)}/s); failed requests: ${counts.errors}; unexpected statuses: ${counts.unexpected}`,
);
console.log(
  `statuses: ${[...statuses.entries()]
    .sort()
    .map(([s, n]) => `${s}×${n}`)
    .join(' ')}`,
);
console.log(
  `resident memory: start ${round(startRss, 1)} MB, end ${round(endRss, 1)} MB; mean of first quarter ${round(avg(firstQuarter), 1)} MB, last quarter ${round(avg(lastQuarter), 1)} MB`,
);
console.log(
  `held at the end: ${state.sandboxes.length} sandboxes, ${state.conversations.length} conversations (the fixture's, and the one its running start task made), ${faults.faults.length} faults (cap 100), ${journal.requests.length} journal entries (cap 500)`,
);
if (stateFile) {
  const sizes = await Promise.all(
    [stateFile, `${stateFile}.log`].map((f) =>
      stat(f)
        .then((s) => s.size)
        .catch(() => 0),
    ),
  );
  console.log(
    `state file at the end: snapshot ${round(sizes[0]! / 1024, 1)} KiB, change log ${round(sizes[1]! / 1024, 1)} KiB (compacted every 50,000 lines)`,
  );
}
process.exitCode = counts.errors === 0 && counts.unexpected === 0 ? 0 : 1;
