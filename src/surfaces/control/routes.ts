/**
 * The control API's routes (health, reset, state, clock, faults, request journal, the inspector),
 * relative to where the control surface is mounted (`/_fakehands`). A new control route goes here.
 */
import { startReplay } from '../../domain/agent/replay.js';
import { oversizedReplayEvent } from '../../domain/agent/replay-bounds.js';
import { INSPECTOR_HTML } from './inspector-page.js';
import {
  ClockAdvance,
  ClockTime,
  FaultList,
  FaultSpec,
  FaultsCleared,
  Fault,
  Health,
  JournalCleared,
  JournalPage,
  JournalQuery,
  ResetDone,
  ResetRequest,
} from '../../schemas/control.js';
import { StateSnapshot } from '../../schemas/fixture.js';
import { MAX_REPLAY_BODY_VALUES, MAX_REPLAY_JSON_BYTES, ReplayRequest, ReplayStarted, ReplayZipQuery } from '../../schemas/replay.js';
import * as z from 'zod/mini';
import { SandboxInfo } from '../../schemas/sandbox.js';
import { AgentScript } from '../../schemas/agent-server.js';
import { MAX_INSTANT_MS } from '../../domain/time/clock.js';
import { FakehandsError } from '../../domain/store/errors.js';
import { invalid, refuse } from '../../domain/store/refusal.js';
import { raw } from '../../http/responses.js';
import { defineRoute, type Route, type RouteContext, type UploadedFile } from '../../http/route.js';
import { failSandbox } from '../../domain/sandboxes/sandboxes.js';
import { MAX_REPLAY_ZIP_BYTES, eventsOfTrajectoryZip } from '../../domain/agent/replay-zip.js';

const clockTime = (context: RouteContext) => ({ now: new Date(context.clock.now()).toISOString() });

/** The inspector page, as the dev server and a page using the browser entry serve it. */
const inspector = async () =>
  raw(200, INSPECTOR_HTML, 'text/html; charset=utf-8', {
    'cache-control': 'no-store',
    // Never inside another origin's frame (clickjacking of its pause, delete and reset buttons).
    'x-frame-options': 'DENY',
    'content-security-policy': "frame-ancestors 'none'",
  });

/** The request journal's paths: `/journal`, its documented name, and `/requests`, the name it had first (kept working). */
const JOURNAL_PATHS = ['/journal', '/requests'] as const;

/** The journal's routes (read, forget) under one of its paths: the same definitions, the same schemas, under each name. */
const journalRoutes = (path: (typeof JOURNAL_PATHS)[number]): Route[] => {
  const alias = path === '/journal' ? '' : ' (the same as /_fakehands/journal, its earlier name)';
  return [
    defineRoute({
      method: 'GET',
      path,
      summary: `The last requests answered (?misses=true: only the 404s, 405s and 422s, each with why)${alias}`,
      query: JournalQuery,
      response: JournalPage,
      handle: async ({ query }, context) => ({ requests: context.journal.entries(query.limit, { misses: query.misses === true }) }),
    }),
    defineRoute({
      method: 'DELETE',
      path,
      summary: `Forget the journal${alias}`,
      response: JournalCleared,
      handle: async (_input, context) => {
        context.journal.clear();
        return { cleared: true as const };
      },
    }),
  ];
};

/** The control routes. */
export const controlRoutes: readonly Route[] = [
  defineRoute({
    method: 'GET',
    path: '/',
    summary: 'The inspector: a page showing and driving the fake',
    public: true,
    response: z.string(),
    handle: inspector,
  }),
  defineRoute({
    method: 'POST',
    path: '/sandboxes/:sandbox_id/fail',
    summary: 'Put a sandbox in ERROR, as when its container dies, with an optional status_detail',
    body: z.strictObject({ detail: z.optional(z.string().check(z.minLength(1), z.maxLength(500))) }),
    bodyOptional: true,
    response: SandboxInfo,
    errors: [404],
    handle: ({ params, body }, { runner }) => runner.run(failSandbox, params.sandbox_id, body.detail),
  }),
  defineRoute({
    method: 'GET',
    path: '/health',
    summary: 'Whether the fake is up (no key needed)',
    public: true,
    response: Health,
    handle: async () => ({ status: 'ok' as const }),
  }),
  defineRoute({
    method: 'POST',
    path: '/reset',
    summary: 'Replace the whole state with a fixture (by name: built-in, or a file of --fixtures-dir) and seed; clears the faults',
    body: ResetRequest,
    bodyOptional: true,
    response: ResetDone,
    handle: async ({ body }, context) => {
      try {
        await context.resetByName(body);
      } catch (error) {
        if (!(error instanceof FakehandsError) || error.code !== 'invalid_fixture') throw error;
        return invalid([
          {
            type: 'value_error',
            loc: ['body', 'fixture'],
            msg: `Value error, ${error.message}`,
            input: body.fixture ?? null,
            ctx: { error: {} },
          },
        ]);
      }
      context.faults.clear();
      return { status: 'ok' as const };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/state',
    summary: 'Everything the fake holds, as a fixture (tokens redacted)',
    response: StateSnapshot,
    handle: (_input, context) => context.snapshot(),
  }),
  defineRoute({
    method: 'GET',
    path: '/clock',
    summary: "The fake's time",
    response: ClockTime,
    handle: async (_input, context) => clockTime(context),
  }),
  defineRoute({
    method: 'POST',
    path: '/clock',
    summary: "Move the fake's time forward",
    body: ClockAdvance,
    response: ClockTime,
    handle: async ({ body }, context) => {
      const limit = MAX_INSTANT_MS - context.clock.now();
      if (body.advance_ms > limit) {
        return invalid([
          {
            type: 'less_than_equal',
            loc: ['body', 'advance_ms'],
            msg: `Input should be less than or equal to ${limit}`,
            input: body.advance_ms,
            ctx: { le: limit },
          },
        ]);
      }
      context.clock.advance(body.advance_ms);
      context.runner.noteChange({ entity: 'clock', action: 'updated' });
      await context.runner.settle();
      return clockTime(context);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/faults',
    summary: 'The faults in force',
    response: FaultList,
    handle: async (_input, context) => ({ faults: context.faults.list() }),
  }),
  defineRoute({
    method: 'POST',
    path: '/faults',
    summary: 'Add a fault',
    body: FaultSpec,
    response: Fault,
    handle: async ({ body }, context) => context.faults.add(body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/faults',
    summary: 'Clear every fault',
    response: FaultsCleared,
    handle: async (_input, context) => {
      const cleared = context.faults.list().length;
      context.faults.clear();
      return { cleared };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/agent-scripts',
    summary: "The agent's scripts in force",
    response: z.object({ scripts: z.array(AgentScript) }),
    handle: async (_input, context) => ({ scripts: [...context.agentScripts()] }),
  }),
  defineRoute({
    method: 'PUT',
    path: '/agent-scripts',
    summary: 'Replace the agent\'s scripts: {"scripts": [{"match"?, "steps": [...]}]}',
    body: z.strictObject({ scripts: z.array(AgentScript).check(z.maxLength(1000)) }),
    response: z.object({ scripts: z.int() }),
    handle: async ({ body }, context) => {
      context.setAgentScripts(body.scripts);
      return { scripts: body.scripts.length };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/replay',
    summary:
      'Replay a recorded session on a new RUNNING V1 conversation: {"trajectory": [...]} (V0) or {"events": [...]} (V1), "speed"? (a factor, or "instant")',
    body: ReplayRequest,
    // A real session's events (thousands, each a few dozen values): its own bound, sized for MAX_REPLAY_EVENTS of them.
    maxBodyValues: MAX_REPLAY_BODY_VALUES,
    // Past the server's 1 MiB, as the ZIP route: each event held to the ZIP route's bound for one event file.
    maxBodyBytes: MAX_REPLAY_JSON_BYTES,
    response: ReplayStarted,
    successStatus: 201,
    handle: async ({ body }, context) => oversizedReplayEvent(body) ?? context.runner.run(startReplay, body),
  }),
  defineRoute({
    method: 'POST',
    path: '/replay/zip',
    summary:
      "Replay a V1 conversation's downloaded ZIP (GET /api/file/download-trajectory/{id}) on a new RUNNING conversation: multipart field `file`, ?speed= (a factor, or instant)",
    query: ReplayZipQuery,
    form: { file: 'file' },
    // A real session's archive (thousands of event files) is past the server's 1 MiB: its own bound.
    maxBodyBytes: MAX_REPLAY_ZIP_BYTES,
    response: ReplayStarted,
    successStatus: 201,
    handle: async ({ body, query }, context) => {
      const events = await eventsOfTrajectoryZip((body as unknown as { file: UploadedFile }).file.bytes);
      if (!Array.isArray(events)) return events;
      return context.runner.run((state) => startReplay(state, { events, ...(query.speed === undefined ? {} : { speed: query.speed }) }));
    },
  }),
  ...JOURNAL_PATHS.flatMap(journalRoutes),
  defineRoute({
    method: 'GET',
    path: '/tenants',
    summary: 'The tenants this fake holds besides the default one (from the default tenant only)',
    response: z.object({
      tenants: z.array(z.object({ name: z.string(), created_at: z.string(), last_used_at: z.string() })),
      max_tenants: z.int(),
    }),
    errors: [404],
    handle: async (_input, context) =>
      context.tenants
        ? { tenants: context.tenants.list(), max_tenants: context.tenants.maxTenants }
        : refuse('not_found', 'Tenants are listed from the default tenant only'),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/tenants/:name',
    summary: 'Drop a tenant and everything it holds (from the default tenant only)',
    response: z.object({ deleted: z.literal(true) }),
    errors: [404],
    handle: async ({ params }, context) =>
      (await context.tenants?.delete(params.name))
        ? { deleted: true as const }
        : refuse(
            'not_found',
            context.tenants ? `No tenant is named ${JSON.stringify(params.name)}` : 'Tenants are deleted from the default tenant only',
          ),
  }),
];
