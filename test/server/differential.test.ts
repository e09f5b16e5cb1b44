/**
 * The same recorded sequence of requests, good and bad, through msw's setupServer and through
 * the standalone HTTP server over real sockets, per-route handlers and `fake.fetch`: identical
 * statuses and bodies, for the API, the control API and the OpenAPI document alike.
 */
import { setupServer } from 'msw/node';
import { afterAll, describe, expect, it } from 'vitest';
import { createFake } from '../../src/index.js';
import { createFakeServer, type FakeServer } from '../../src/server/http-server.js';

import { OPTIONS, SEQUENCE, init, play, playThroughSetupServer } from '../support/sequence.js';

describe('in-process and over-the-wire answers', () => {
  let server: FakeServer | undefined;
  afterAll(async () => server?.close());

  it('are identical for a recorded sequence of good and bad requests (one handler, per-route handlers, real sockets)', async () => {
    const viaMsw = await playThroughSetupServer();

    const overTheWire = await createFake({ ...OPTIONS, baseUrl: 'http://localhost' });
    server = createFakeServer(overTheWire);
    const url = await server.listen(0, '127.0.0.1');
    const viaHttp = await play(
      (step) => fetch(...init(step, url)),
      (ms) => overTheWire.clock.advance(ms),
    );

    expect(viaHttp).toEqual(viaMsw);

    const perRoute = await createFake({ ...OPTIONS, baseUrl: 'http://fake.test' });
    const routeServer = setupServer(...perRoute.routeHandlers);
    routeServer.listen({ onUnhandledRequest: 'error' });
    const viaRouteHandlers = await play(
      (step) => fetch(...init(step, 'http://fake.test')),
      (ms) => perRoute.clock.advance(ms),
    );
    routeServer.close();
    expect(viaRouteHandlers).toEqual(viaMsw);
    expect(perRoute.routeHandlers).toHaveLength(
      perRoute.mounts.list.reduce((n, mount) => n + mount.surface.routes.length, 0) + perRoute.mounts.roots().length,
    );

    const direct = await createFake({ ...OPTIONS, baseUrl: 'http://fake.test' });
    const viaFakeFetch = await play(
      (step) => direct.fetch(new Request(...init(step, 'http://fake.test'))),
      (ms) => direct.clock.advance(ms),
    );
    expect(viaFakeFetch).toEqual(viaMsw);
    const statuses = new Set(viaMsw.map((r) => r.status));
    expect([...statuses].sort()).toEqual([200, 400, 401, 404, 405, 422, 503]);
    const health = viaMsw[SEQUENCE.findIndex((step) => step.path === '/_fakehands/health')]!;
    expect(health).toEqual({ status: 200, body: '{"status":"ok"}' });
  });
});
