/**
 * Starts what `fakehands serve` starts, from code: the app server and the agent host behind every
 * `conversation_url`, each on its own listener over one fake core. The agent host's port must be
 * known before the fake is made (conversation URLs name it), so a free one is found first.
 */
import { createServer } from 'node:net';
import { createFakeCore, type FakeCore } from '../fake.js';
import type { FakeOptionsInput } from '../options.js';
import { createFakeServer, type FakeServerOptions } from './http-server.js';

/**
 * A port to listen on: `port` itself, or a free one when it is 0 (or, with `orAnother`, when it is
 * taken). Found by binding and releasing it, so another process could take it in between.
 */
export async function freePort(host: string, port: number, orAnother = false): Promise<number> {
  if (port !== 0 && !orAnother) return port;
  const bind = (wanted: number) =>
    new Promise<number | null>((resolve, reject) => {
      const probe = createServer();
      probe.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' ? resolve(null) : reject(error)));
      probe.listen(wanted, host, () => {
        const { port: bound } = probe.address() as { port: number };
        probe.close(() => resolve(bound));
      });
    });
  return (port !== 0 ? await bind(port) : null) ?? (await bind(0))!;
}

/** Options of `startFakeServers`: the fake's (its `agentUrl` is set from where the agent host listens), and where to listen. */
export interface FakeServersOptions {
  /** Options of the fake core (`agentUrl` is set by `startFakeServers`). */
  fake?: Omit<FakeOptionsInput, 'agentUrl'>;
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  /** Port of the app server (default 0: a free one). */
  port?: number;
  /** Port of the agent host (default 0: a free one). */
  agentPort?: number;
  /** Options of both listeners (CORS, body limits, log). */
  server?: Omit<FakeServerOptions, 'origin'>;
}

/** The running app server and agent host. */
export interface FakeServers {
  /** The fake core both answer from. */
  fake: FakeCore;
  /** Where the app server listens. */
  url: string;
  /** Where the agent host listens (what `conversation_url` names). */
  agentUrl: string;
  /** Stops both. */
  close(): Promise<void>;
}

/**
 * Starts the app server and the agent host, as `fakehands serve` does.
 * @example
 * const { url, agentUrl, close } = await startFakeServers({ fake: { timings: 'instant', fixture: 'empty' } })
 */
export async function startFakeServers(options: FakeServersOptions = {}): Promise<FakeServers> {
  const host = options.host ?? '127.0.0.1';
  const agentPort = await freePort(host, options.agentPort ?? 0);
  const agentUrl = `http://${host.includes(':') ? `[${host}]` : host}:${agentPort}`;
  const fake = await createFakeCore({ clock: 'system', ...options.fake, agentUrl });
  const app = createFakeServer(fake, options.server);
  const agent = createFakeServer(fake, { ...options.server, origin: agentUrl });
  // The agent host first: its port was found free just now, and the app server's port 0 could otherwise be handed that very port.
  await agent.listen(agentPort, host);
  let url: string;
  try {
    url = await app.listen(options.port ?? 0, host);
  } catch (error) {
    await agent.close();
    throw error;
  }
  return {
    fake,
    url,
    agentUrl,
    close: async () => {
      await Promise.all([agent.close(), app.close()]);
    },
  };
}
