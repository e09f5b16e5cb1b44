// Scale worker (plain JavaScript over dist/, so the measurement carries no TypeScript loader):
// loads N conversations, each with its sandbox, and times search (first and a deep page), count
// and batch get in-process; reports resident memory. Usage: node --expose-gc scale-worker.mjs N
import { createFake, generateFixture } from '../dist/index.js';

const ITERATIONS = 300;
const n = Number(process.argv[2]);

async function perCall(fake, path) {
  const request = () => fake.fetch(new Request(`http://localhost:3000${path}`));
  for (let i = 0; i < 30; i++) await (await request()).text();
  const started = performance.now();
  for (let i = 0; i < ITERATIONS; i++) {
    const response = await request();
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
    await response.text();
  }
  return ((performance.now() - started) / ITERATIONS) * 1000;
}

// A fixture factory: the generated data is garbage once stored (createFake keeps only the factory).
let ids = [];
let v1Count = 0;
const loadStarted = performance.now();
const fake = await createFake({
  fixture: () => {
    const fixture = generateFixture({ conversations: n, seed: 5 });
    const v1 = fixture.conversations.filter((c) => c.version === 'V1' && !c.parent_conversation_id);
    v1Count = v1.length;
    ids = v1
      .filter((_, i) => i % Math.max(1, Math.floor(v1.length / 20)) === 0)
      .slice(0, 20)
      .map((c) => c.id);
    return fixture;
  },
  auth: 'none',
  timings: 'instant',
});
const loadMs = performance.now() - loadStarted;
for (let i = 0; i < 3; i++) globalThis.gc?.();
await new Promise((resolve) => setTimeout(resolve, 500));
globalThis.gc?.();
const memory = process.memoryUsage();
const deep = Math.floor(v1Count / 2);
console.log(
  JSON.stringify({
    n,
    loadMs,
    rssMb: memory.rss / 1048576,
    heapUsedMb: memory.heapUsed / 1048576,
    searchFirstUs: await perCall(fake, '/api/v1/app-conversations/search?limit=20'),
    searchDeepUs: await perCall(fake, `/api/v1/app-conversations/search?limit=20&page_id=${deep}`),
    countUs: await perCall(fake, '/api/v1/app-conversations/count'),
    batchGetUs: await perCall(fake, `/api/v1/app-conversations?${ids.map((id) => `ids=${id}`).join('&')}`),
  }),
);
