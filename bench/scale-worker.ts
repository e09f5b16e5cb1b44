/**
 * Scale worker: loads N conversations (each with its sandbox) into a fake and times search
 * (first and a deep page), count and batch get in-process; reports resident memory.
 * Usage: tsx bench/scale-worker.ts N  → prints one JSON line.
 */
import { createFake, generateFixture } from '../dist/index.js';

const ITERATIONS = 300;
const n = Number(process.argv[2]);

async function perCall(fake: Awaited<ReturnType<typeof createFake>>, path: string): Promise<number> {
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

let fixture: ReturnType<typeof generateFixture> | null = generateFixture({ conversations: n, seed: 5 });
const v1 = fixture.conversations!.filter((c) => c.version === 'V1' && !c.parent_conversation_id);
const ids = v1.filter((_, i) => i % Math.max(1, Math.floor(v1.length / 20)) === 0).slice(0, 20).map((c) => c.id);
const loadStarted = performance.now();
const fake = await createFake({ fixture, auth: 'none', timings: 'instant' });
const loadMs = performance.now() - loadStarted;
fixture = null;
global.gc?.();
const rssMb = process.memoryUsage().rss / 1024 / 1024;
const deep = Math.floor(v1.length / 2);
const result = {
  n,
  loadMs,
  rssMb,
  searchFirstUs: await perCall(fake, '/api/v1/app-conversations/search?limit=20'),
  searchDeepUs: await perCall(fake, `/api/v1/app-conversations/search?limit=20&page_id=${deep}`),
  countUs: await perCall(fake, '/api/v1/app-conversations/count'),
  batchGetUs: await perCall(fake, `/api/v1/app-conversations?${ids.map((id) => `ids=${id}`).join('&')}`),
};
console.log(JSON.stringify(result));
