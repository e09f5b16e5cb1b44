/**
 * Mounts: who answers a URL. The default mounts of a fake (the app server at the base URL, the
 * control API under `/_fakehands`), a URL outside every mount, and mounts of several instances.
 */
import { setupServer } from 'msw/node';
import { describe, expect, it } from 'vitest';
import { createFake, createFakeCore } from '../../src/index.js';
import { createFakeServer } from '../../src/server.js';
import { Mounts } from '../../src/mounts/mounts.js';
import { createHandlers } from '../../src/mounts/msw-handlers.js';

describe('defaultMounts', () => {
  it('mounts the app server at the base URL and the control API under /_fakehands, the longest prefix first', async () => {
    const fake = await createFake({ baseUrl: 'http://localhost:3000/fake', fixture: 'empty' });
    expect(fake.mounts.list.map((m) => [m.origin, m.prefix, m.surface.name])).toEqual([
      ['http://localhost:3000', '/fake/_fakehands', 'control'],
      ['http://localhost:3000', '/fake', 'app-server'],
    ]);
    const where = (url: string) => {
      const placed = fake.mounts.find(new URL(url));
      return placed && [placed.mount.surface.name, placed.path];
    };
    expect(where('http://localhost:3000/fake/_fakehands/health')).toEqual(['control', '/health']);
    expect(where('http://localhost:3000/fake/_fakehands')).toEqual(['control', '/']);
    expect(where('http://localhost:3000/fake/_fakehandsX')).toEqual(['app-server', '/_fakehandsX']);
    expect(where('http://localhost:3000/fake/api/v1/sandboxes/search')).toEqual(['app-server', '/api/v1/sandboxes/search']);
    expect(where('http://localhost:3000/api/v1/sandboxes/search')).toBeNull();
    expect(where('http://localhost:3001/fake/api/v1/sandboxes/search')).toBeNull();
    expect(fake.mounts.roots()).toEqual(['http://localhost:3000/fake']);
  });
});

describe('the standalone server over mounts', () => {
  it('answers a request outside every mount with 404 {"detail": "Not Found"}, never serving it with the prefix left off', async () => {
    const core = await createFakeCore({ baseUrl: 'http://localhost:3000/fake', fixture: 'empty', auth: 'none' });
    const server = createFakeServer(core);
    const url = await server.listen(0, '127.0.0.1');
    try {
      const inside = await fetch(`${url}/fake/api/v1/sandboxes/search`);
      expect([inside.status, await inside.json()]).toEqual([200, { items: [], next_page_id: null }]);
      const outside = await fetch(`${url}/api/v1/sandboxes/search`);
      expect([outside.status, await outside.json()]).toEqual([404, { detail: 'Not Found' }]);
      expect(core.journal.entries().map((e) => e.path)).toEqual(['/api/v1/sandboxes/search']);
    } finally {
      await server.close();
    }
  });
});

describe('mounts of several instances', () => {
  it('two fakes on two origins behind one set of msw handlers keep their own state', async () => {
    const one = await createFake({ baseUrl: 'http://one.test', fixture: 'empty', auth: 'none' });
    const two = await createFake({ baseUrl: 'http://two.test', fixture: 'empty', auth: 'none' });
    const server = setupServer(...createHandlers(new Mounts([...one.mounts.list, ...two.mounts.list])));
    server.listen({ onUnhandledRequest: 'error' });
    try {
      expect((await fetch('http://one.test/api/v1/sandboxes', { method: 'POST' })).status).toBe(200);
      const count = async (origin: string) =>
        ((await (await fetch(`${origin}/api/v1/sandboxes/search`)).json()) as { items: unknown[] }).items.length;
      expect([await count('http://one.test'), await count('http://two.test')]).toEqual([1, 0]);
      expect(two.journal.entries().map((e) => e.path)).toEqual(['/api/v1/sandboxes/search']);
    } finally {
      server.close();
    }
  });
});
