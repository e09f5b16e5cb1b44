// One hostile load of the stall benchmark (bench/run.ts, section 7), run in its own process so
// that the health probe in the benchmark's process measures the server, not a busy client.
// Usage: node bench/stall-load.mjs URL LOAD MS (loads that prepare first print `go` when the load begins)
const [url, name, ms] = [process.argv[2], process.argv[3], Number(process.argv[4])];
const post = (path, body, signal) =>
  fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal })
    .then((r) => r.arrayBuffer())
    .catch(() => undefined);
const repeatFor = async (work) => {
  const until = performance.now() + ms;
  while (performance.now() < until) await work();
};
const loads = {
  'bad-items': () => {
    const body = JSON.stringify({ pr_number: Array(250_000).fill('a') });
    return repeatFor(() => Promise.all(Array.from({ length: 6 }, () => post('/api/v1/app-conversations', body))));
  },
  secrets: () => {
    const body = JSON.stringify({ secrets: Object.fromEntries(Array.from({ length: 1_900 }, (_, i) => [`SECRET_${i}`, 'value'])) });
    return repeatFor(() => Promise.all(Array.from({ length: 4 }, () => post('/api/v1/app-conversations', body))));
  },
  'huge-secrets': () => {
    const body = JSON.stringify({ secrets: Object.fromEntries(Array.from({ length: 80_000 }, (_, i) => [`SECRET_${i}`, 'value'])) });
    return repeatFor(() => Promise.all(Array.from({ length: 4 }, () => post('/api/v1/app-conversations', body))));
  },
  'stream-starts': async () => {
    const controller = new AbortController();
    const streams = Array.from({ length: 1000 }, () =>
      fetch(`${url}/api/v1/app-conversations/stream-start`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
        signal: controller.signal,
      })
        .then(async (r) => {
          const reader = r.body.getReader();
          while (!(await reader.read()).done);
        })
        .catch(() => undefined),
    );
    await new Promise((r) => setTimeout(r, ms));
    controller.abort();
    await Promise.all(streams);
  },
  faults: async () => {
    for (let i = 0; i < 100; i++)
      await post(
        '/_fakehands/faults',
        JSON.stringify({ kind: 'status', path: `/api/v1/nothing/${'x'.repeat(2000)}/${i}`, status: 503, sticky: true }),
      );
    await repeatFor(() =>
      Promise.all(Array.from({ length: 10 }, () => fetch(`${url}/api/v1/sandboxes/search`).then((r) => r.arrayBuffer()))),
    );
    await fetch(`${url}/_fakehands/faults`, { method: 'DELETE' });
  },
  // Issue 29: hostile frames on the agent server's event socket (a 200,000-item content list, a
  // 400,000-deep list, 20,000 bad items in 40 KB, 1,990 bad items under the value limit, a frame
  // that is not a message), each batch sent once the previous one's error frames came back.
  'socket-frames': async () => {
    const { default: WebSocket } = await import('ws');
    const json = (r) => r.json();
    const started = await fetch(`${url}/api/v1/app-conversations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    }).then(json);
    let conversation;
    for (let i = 0; i < 600 && !conversation; i++) {
      const [current] = await fetch(`${url}/api/v1/app-conversations/start-tasks?ids=${started.id}`).then(json);
      if (current.status === 'READY')
        [conversation] = await fetch(`${url}/api/v1/app-conversations?ids=${current.app_conversation_id}`).then(json);
      else await new Promise((r) => setTimeout(r, 50));
    }
    const agent = new URL(conversation.conversation_url);
    const socket = new WebSocket(`ws://${agent.host}/sockets/events/${conversation.id}?session_api_key=${conversation.session_api_key}`);
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    const frames = [
      `{"role":"user","content":[${Array(200_000).fill('1').join(',')}]}`,
      `${'['.repeat(400_000)}${']'.repeat(400_000)}`,
      `{"role":"user","content":${'['.repeat(400_000)}${']'.repeat(400_000)}}`,
      `{"role":"user","content":[${Array(20_000).fill('1').join(',')}]}`,
      `{"role":"user","content":[${Array(1_990).fill('1').join(',')}]}`,
      '{}',
    ];
    let errors = 0;
    let wake = () => undefined;
    socket.on('message', (data) => {
      if (String(data).startsWith('{"kind":"ServerErrorEvent"')) errors++;
      wake();
    });
    await repeatFor(async () => {
      const until = errors + frames.length;
      for (const frame of frames) socket.send(frame);
      while (errors < until)
        await new Promise((r) => {
          wake = r;
        });
    });
    socket.close();
  },
  idle: () => new Promise((r) => setTimeout(r, ms)),
  // Round four (issue 29, finding 11): each load prepares first, then prints `go` (the probe counts from there).
  handshakes: async () => {
    const { WebSocket } = await import('ws');
    const c = await conversation();
    const socketUrl = `${c.conversation_url.replace(/^http/, 'ws').replace(/\/api\/conversations\/.*$/, '')}/sockets/events/${c.id}?session_api_key=${c.session_api_key}`;
    // One socket first, in the preparation: the first loads the agent host's socket routes (lazy, issue 23; a one-time turn of 50 to 80 ms of CPU), not what this load measures.
    await new Promise((resolve) => {
      const first = new WebSocket(socketUrl);
      first.once('message', () => first.close());
      first.once('close', resolve);
      first.once('error', resolve);
    });
    go();
    const until = performance.now() + ms;
    while (performance.now() < until) {
      const sockets = Array.from({ length: 2000 }, () => new WebSocket(socketUrl));
      await Promise.all(
        sockets.map(
          (ws) =>
            new Promise((resolve) => {
              ws.once('open', resolve);
              ws.once('error', resolve);
              ws.once('close', resolve);
            }),
        ),
      );
      for (const ws of sockets) ws.terminate();
    }
  },
  download: async () => {
    const c = await conversation();
    const agent = c.conversation_url.replace(/\/api\/conversations\/.*$/, '');
    const megabyte = 'x'.repeat(1_000_000);
    for (let i = 0; i < Number(process.env.LOOP_DOWNLOAD_MB ?? 82); i += 4) {
      await Promise.all(
        Array.from({ length: 4 }, (_, k) => {
          const form = new FormData();
          form.append('file', new Blob([megabyte], { type: 'text/plain' }), `f${i + k}.txt`);
          return fetch(`${agent}/api/file/upload?path=${encodeURIComponent(`/home/openhands/workspace/big/f${i + k}.txt`)}`, {
            method: 'POST',
            headers: { 'x-session-api-key': c.session_api_key },
            body: form,
          }).then((r) => r.arrayBuffer());
        }),
      );
    }
    go();
    await repeatFor(() => fetch(`${url}/api/v1/app-conversations/${c.id}/download`).then((r) => r.arrayBuffer()));
  },
  'legacy-list': async () => {
    for (let i = 0; i < Number(process.env.LOOP_CONVERSATIONS ?? 20_000); i += 50)
      await Promise.all(Array.from({ length: 50 }, () => post('/api/conversations', '{}')));
    go();
    await repeatFor(() => fetch(`${url}/api/conversations?limit=100000`).then((r) => r.arrayBuffer()));
  },
  // The round-three stall attacks at once: bad items, refused secrets maps, open stream-starts.
  stall: async () => {
    go();
    await Promise.all([loads['bad-items'](), loads['huge-secrets'](), loads['stream-starts']()]);
  },
  // Finding 11: 1,000 tenants made, 50 at a time, each by its first request (the server allows that many).
  tenants: async () => {
    go();
    let next = 0;
    const worker = async () => {
      while (next < 1000) {
        const name = `t${next++}`;
        const r = await fetch(`${url}/api/v1/sandboxes/search`, { headers: { 'x-fakehands-tenant': name } });
        await r.arrayBuffer();
        if (r.status !== 200) throw new Error(`${name}: ${r.status}`);
      }
    };
    await Promise.all(Array.from({ length: 50 }, worker));
  },
  // Finding 12: 100 sockets that never read (paused under ws) while 30 events of 900 KB are posted, again and again.
  'slow-readers': async () => {
    const { WebSocket } = await import('ws');
    const { connect } = await import('node:net');
    const c = await conversation();
    const agent = c.conversation_url.replace(/\/api\/conversations\/.*$/, '');
    const socketUrl = `${agent.replace(/^http/, 'ws')}/sockets/events/${c.id}?session_api_key=${c.session_api_key}`;
    const body = JSON.stringify({ role: 'user', content: [{ type: 'text', text: 'x'.repeat(900 * 1024) }], run: false });
    go();
    const until = performance.now() + ms;
    for (let round = 0; round < 6 && performance.now() < until; round++) {
      const sockets = Array.from({ length: 100 }, () => {
        let raw;
        const ws = new WebSocket(socketUrl, { createConnection: (options) => (raw = connect(options)) });
        ws.on('error', () => undefined);
        return new Promise((resolve) =>
          ws.once('open', () => {
            raw.pause();
            resolve(ws);
          }),
        );
      });
      const open = await Promise.all(sockets);
      for (let i = 0; i < 30; i++)
        await fetch(`${agent}/api/conversations/${c.id}/events`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-session-api-key': c.session_api_key },
          body,
        }).then((r) => r.arrayBuffer());
      for (const ws of open) ws.terminate();
    }
  },
  // 2,000 start tasks on their way (realistic timings), settled while clients poll them.
  'stuck-tasks': async () => {
    go();
    for (let i = 0; i < 2000; i += 100) await Promise.all(Array.from({ length: 100 }, () => post('/api/v1/app-conversations', '{}')));
    await repeatFor(() =>
      Promise.all([
        fetch(`${url}/api/v1/app-conversations/start-tasks/search?limit=100`).then((r) => r.arrayBuffer()),
        fetch(`${url}/api/v1/app-conversations/start-tasks/count`).then((r) => r.arrayBuffer()),
      ]),
    );
  },
};

/** Tells the benchmark the load has begun (after its preparation). */
function go() {
  process.stdout.write('go\n');
}

/** A conversation with a READY start task, as the app server lists it. */
async function conversation() {
  const task = await (
    await fetch(`${url}/api/v1/app-conversations`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
  ).json();
  for (;;) {
    const [current] = await (await fetch(`${url}/api/v1/app-conversations/start-tasks?ids=${task.id}`)).json();
    if (current.status === 'READY')
      return (await (await fetch(`${url}/api/v1/app-conversations?ids=${current.app_conversation_id}`)).json())[0];
    await new Promise((r) => setTimeout(r, 50));
  }
}

// Loads with no preparation begin at once.
if (!['handshakes', 'download', 'legacy-list', 'stall', 'stuck-tasks', 'tenants', 'slow-readers'].includes(name)) go();
await loads[name]();
