/**
 * Each surface's route table is the one list of what it serves: with one route added to the agent
 * server's table and one to the app server's (here, by a mock of their modules; nothing else
 * edited), the OpenAPI documents, their operation counts, the served surface and drift's
 * declaration of the agent routes the published document lacks all change with them.
 */
import { readFile } from 'node:fs/promises';
import * as z from 'zod/mini';
import { describe, expect, it, vi } from 'vitest';
import { defineRoute, type Route } from '../../src/http/route.js';

const EXTRA_AGENT = '/api/extra-agent-route';
const EXTRA_APP = '/api/v1/extra-app-route';

/** A route no real server has: what a newcomer adds to a table. */
const extra = (path: string): Route =>
  defineRoute({ method: 'GET', path, summary: 'An added route', response: z.object({ ok: z.boolean() }), handle: async () => ({ ok: true }) });

vi.mock('../../src/surfaces/agent-server/routes.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/surfaces/agent-server/routes.js')>();
  return { ...actual, agentRoutes: Object.freeze([...actual.agentRoutes, extra(EXTRA_AGENT)]) };
});
vi.mock('../../src/surfaces/app-server/routes/all.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/surfaces/app-server/routes/all.js')>();
  return { ...actual, apiRoutes: Object.freeze([...actual.apiRoutes, extra(EXTRA_APP)]) };
});

const { checkDrift, fakeDocument } = await import('../../src/drift/index.js');
const { NEWEST_AGENT_SOURCE } = await import('../../src/drift/known-agent-differences.js');
const { agentServerSurface } = await import('../../src/surfaces/agent-server/index.js');
const { agentRoutes } = await import('../../src/surfaces/agent-server/routes.js');
const { apiRoutes } = await import('../../src/surfaces/app-server/routes/all.js');
const actualAgent = await vi.importActual<typeof import('../../src/surfaces/agent-server/routes.js')>('../../src/surfaces/agent-server/routes.js');
const actualApp = await vi.importActual<typeof import('../../src/surfaces/app-server/routes/all.js')>('../../src/surfaces/app-server/routes/all.js');

/** A document's operations, as `METHOD /path`. */
const operationsOf = (document: object): string[] =>
  Object.entries((document as { paths: Record<string, object> }).paths).flatMap(([path, methods]) =>
    Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
  );

describe('a route added to a surface table', () => {
  it('is counted in its OpenAPI document, the app server\'s and the agent server\'s alike', () => {
    expect(agentRoutes.length).toBe(actualAgent.agentRoutes.length + 1);
    expect(apiRoutes.length).toBe(actualApp.apiRoutes.length + 1);
    expect(operationsOf(fakeDocument({ agent: true }))).toContain(`GET ${EXTRA_AGENT}`);
    expect(operationsOf(fakeDocument({ agent: true })).length).toBe(agentRoutes.filter((route) => !route.internal).length);
    expect(operationsOf(fakeDocument())).toContain(`GET ${EXTRA_APP}`);
    expect(operationsOf(fakeDocument()).length).toBe(apiRoutes.filter((route) => !route.internal).length);
  });

  it('is served by the agent server surface', async () => {
    expect((await agentServerSurface.allRoutes()).map((route) => `${route.method} ${route.path}`)).toContain(`GET ${EXTRA_AGENT}`);
  });

  it("is declared by drift --agent as a route the published document lacks, with nothing else to edit", async () => {
    const real = JSON.parse(await readFile('test/drift/real-agent-server.openapi.json', 'utf8')) as object;
    const report = await checkDrift({ specs: [real], agent: true });
    expect(report.differences).toEqual([]);
    expect(report.stale).toEqual([]);
    expect(report.known.filter((known) => known.operation === `GET ${EXTRA_AGENT}`)).toEqual([
      { operation: `GET ${EXTRA_AGENT}`, location: 'operation', aspect: 'served', provider: 'absent', fake: 'served', reason: NEWEST_AGENT_SOURCE },
    ]);
  });
});
