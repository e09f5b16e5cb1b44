/**
 * Token streaming under load (issue 32): 100 sockets on one conversation receive a streamed answer
 * of TOKENS tokens at 50 tokens/s (the fake's `streaming` option, the system clock), and, as the
 * baseline of the same run, a bare `ws` server broadcasts the same frames to 100 clients at the
 * same pace. Prints, for each, the event loop's p99 delay while it ran (`monitorEventLoopDelay`)
 * and the delivery throughput (frames received by all clients per second, first frame to last),
 * and the fake's throughput as a share of the baseline's.
 * Usage: npx tsx bench/streaming.ts [TOKENS]
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import WebSocket, { WebSocketServer } from 'ws';
import { startFakeServers } from '../src/server.js';
import { round } from './lib.js';

const TOKENS = Number(process.argv[2] ?? 100);
const SOCKETS = 100;
const RATE = 50;
const ANSWER = Array.from({ length: TOKENS }, (_, i) => `word${i}`).join(' ');

interface Measure {
  p99Ms: number;
  framesPerSecond: number;
  frames: number;
}

/** Opens `SOCKETS` clients on `url`, runs `go`, and waits until each has `expected` frames of interest. */
async function measure(url: string, expected: number, counts: (frame: string) => boolean, go: () => Promise<void>): Promise<Measure> {
  const clients = await Promise.all(
    Array.from(
      { length: SOCKETS },
      () =>
        new Promise<{ ws: WebSocket; got: number }>((resolve, reject) => {
          const client = { ws: new WebSocket(url), got: 0 };
          client.ws.on('open', () => resolve(client));
          client.ws.on('error', reject);
        }),
    ),
  );
  let first = 0;
  let last = 0;
  let frames = 0;
  const done = new Promise<void>((resolve) => {
    let finished = 0;
    for (const client of clients) {
      client.ws.on('message', (data) => {
        if (!counts(String(data))) return;
        first ||= performance.now();
        last = performance.now();
        frames++;
        if (++client.got === expected && ++finished === SOCKETS) resolve();
      });
    }
  });
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  await go();
  await done;
  delay.disable();
  for (const client of clients) client.ws.close();
  return { p99Ms: round(delay.percentile(99) / 1e6), framesPerSecond: round(frames / ((last - first) / 1000)), frames };
}

// The fake: a RUNNING conversation (an empty replay), its agent answering ANSWER, streamed.
const servers = await startFakeServers({
  fake: {
    fixture: 'empty',
    auth: 'none',
    timings: 'instant',
    streaming: true,
    streamingTokensPerSecond: RATE,
    agentScripts: [{ steps: [{ message: ANSWER }] }],
  },
});
const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const started = (await (await post(`${servers.url}/_fakehands/replay`, { events: [], speed: 'instant' })).json()) as {
  conversation_id: string;
  conversation_url: string;
  session_api_key: string;
};
const socketUrl = `${servers.agentUrl.replace(/^http/, 'ws')}/sockets/events/${started.conversation_id}?session_api_key=${started.session_api_key}`;
const isStreamFrame = (text: string) =>
  text.includes('"StreamingDeltaEvent"') || (text.includes('"MessageEvent"') && text.includes('"assistant"'));
const fake = await measure(socketUrl, TOKENS + 1, isStreamFrame, async () => {
  await post(`${started.conversation_url}/events`, { role: 'user', content: [{ type: 'text', text: 'go' }], run: true });
});
await servers.close();

// The baseline: a bare ws server broadcasting the same frames at the same pace.
const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
await new Promise((resolve) => wss.once('listening', resolve));
const frameTexts = [
  ...ANSWER.match(/\s*\S+/g)!.map((token) =>
    JSON.stringify({
      kind: 'StreamingDeltaEvent',
      id: globalThis.crypto.randomUUID(),
      timestamp: new Date().toISOString(),
      source: 'agent',
      content: token,
    }),
  ),
  JSON.stringify({ kind: 'MessageEvent', source: 'agent', llm_message: { role: 'assistant', content: [{ type: 'text', text: ANSWER }] } }),
];
const bare = await measure(`ws://127.0.0.1:${(wss.address() as { port: number }).port}`, TOKENS + 1, isStreamFrame, async () => {
  const t0 = performance.now();
  frameTexts.forEach((text, i) =>
    setTimeout(
      () => {
        for (const client of wss.clients) client.send(text);
      },
      Math.max(0, t0 + (i * 1000) / RATE - performance.now()),
    ),
  );
});
wss.close();

console.log(
  JSON.stringify(
    {
      sockets: SOCKETS,
      tokens: TOKENS,
      tokens_per_second: RATE,
      fake: fake,
      bare_ws: bare,
      throughput_share_of_bare: round(fake.framesPerSecond / bare.framesPerSecond),
    },
    null,
    2,
  ),
);
