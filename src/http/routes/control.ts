/**
 * The control API under `/_fakehands/` (health, reset, state, clock, faults, request journal)
 * and the OpenAPI document: routes of the same pipeline as the API, so every transport answers
 * them alike. Health and the document are public; the rest need the key unless auth is `none`.
 */
import {
  ClockAdvance, ClockTime, FaultList, FaultSpec, FaultsCleared, Fault, Health, JournalCleared, JournalPage, JournalQuery,
  ResetDone, ResetRequest, StateSnapshot,
} from '../../schemas/control.js';
import { z } from 'zod';
import { SandboxInfo } from '../../schemas/sandbox.js';
import { INSPECTOR_HTML } from '../inspector-page.js';
import { MAX_INSTANT_MS } from '../../domain/clock.js';
import { FakehandsError } from '../../domain/errors.js';
import { Reply, defineRoute, type Route, type RouteContext } from '../route.js';

/** Path prefix of the control API. */
export const CONTROL_PREFIX = '/_fakehands';
/** Path of the OpenAPI document. */
export const OPENAPI_PATH = '/openapi.json';

const clockTime = (context: RouteContext) => ({ now: new Date(context.clock.now()).toISOString() });

/** The inspector page, as the dev server and a page using the browser entry serve it. */
const inspector = async () => new Reply(200, INSPECTOR_HTML, { contentType: 'text/html; charset=utf-8', headers: { 'cache-control': 'no-store' } });

/** The control routes and the OpenAPI document. */
export const controlRoutes: readonly Route[] = [
  defineRoute({
    method: 'GET', path: `${CONTROL_PREFIX}/`, summary: 'The inspector: a page showing and driving the fake', access: 'public', internal: true,
    response: z.string(), handle: inspector,
  }),
  defineRoute({
    method: 'GET', path: CONTROL_PREFIX, summary: 'The inspector', access: 'public', internal: true,
    response: z.string(), handle: inspector,
  }),
  defineRoute({
    method: 'POST', path: `${CONTROL_PREFIX}/sandboxes/:sandbox_id/fail`, summary: 'Put a sandbox in ERROR, as when its container dies, with an optional status_detail',
    access: 'control', internal: true, body: z.strictObject({ detail: z.string().min(1).max(500).optional() }), bodyOptional: true,
    response: SandboxInfo, errors: [404],
    handle: ({ params, body }, { service }) => service.failSandbox(params.sandbox_id!, body.detail),
  }),
  defineRoute({
    method: 'GET', path: `${CONTROL_PREFIX}/health`, summary: 'Whether the fake is up (no key needed)', access: 'public', internal: true,
    response: Health,
    handle: async () => ({ status: 'ok' as const }),
  }),
  defineRoute({
    method: 'POST', path: `${CONTROL_PREFIX}/reset`, summary: 'Replace the whole state with a fixture (by name: built-in, or a file of --fixtures-dir) and seed; clears the faults',
    access: 'control', internal: true, body: ResetRequest, bodyOptional: true, response: ResetDone,
    handle: async ({ body }, context) => {
      try {
        await context.resetByName(body);
      } catch (error) {
        if (!(error instanceof FakehandsError) || error.code !== 'invalid_fixture') throw error;
        return new Reply(422, { detail: [{ type: 'value_error', loc: ['body', 'fixture'], msg: `Value error, ${error.message}`, input: body.fixture ?? null, ctx: { error: {} } }] });
      }
      context.faults.clear();
      return { status: 'ok' as const };
    },
  }),
  defineRoute({
    method: 'GET', path: `${CONTROL_PREFIX}/state`, summary: 'Everything the fake holds, as a fixture (tokens redacted)',
    access: 'control', internal: true, response: StateSnapshot,
    handle: (_input, context) => context.snapshot(),
  }),
  defineRoute({
    method: 'GET', path: `${CONTROL_PREFIX}/clock`, summary: "The fake's time", access: 'control', internal: true, response: ClockTime,
    handle: async (_input, context) => clockTime(context),
  }),
  defineRoute({
    method: 'POST', path: `${CONTROL_PREFIX}/clock`, summary: "Move the fake's time forward", access: 'control', internal: true,
    body: ClockAdvance, response: ClockTime,
    handle: async ({ body }, context) => {
      const limit = MAX_INSTANT_MS - context.clock.now();
      if (body.advance_ms > limit) {
        return new Reply(422, { detail: [{ type: 'less_than_equal', loc: ['body', 'advance_ms'], msg: `Input should be less than or equal to ${limit}`, input: body.advance_ms, ctx: { le: limit } }] });
      }
      context.clock.advance(body.advance_ms);
      context.service.noteChange({ entity: 'clock', action: 'updated' });
      await context.service.settle();
      return clockTime(context);
    },
  }),
  defineRoute({
    method: 'GET', path: `${CONTROL_PREFIX}/faults`, summary: 'The faults in force', access: 'control', internal: true, response: FaultList,
    handle: async (_input, context) => ({ faults: context.faults.list() }),
  }),
  defineRoute({
    method: 'POST', path: `${CONTROL_PREFIX}/faults`, summary: 'Add a fault', access: 'control', internal: true,
    body: FaultSpec, response: Fault,
    handle: async ({ body }, context) => context.faults.add(body),
  }),
  defineRoute({
    method: 'DELETE', path: `${CONTROL_PREFIX}/faults`, summary: 'Clear every fault', access: 'control', internal: true, response: FaultsCleared,
    handle: async (_input, context) => {
      const cleared = context.faults.list().length;
      context.faults.clear();
      return { cleared };
    },
  }),
  defineRoute({
    method: 'GET', path: `${CONTROL_PREFIX}/requests`, summary: 'The last requests answered', access: 'control', internal: true,
    query: JournalQuery, response: JournalPage,
    handle: async ({ query }, context) => ({ requests: context.journal.entries(query.limit) }),
  }),
  defineRoute({
    method: 'DELETE', path: `${CONTROL_PREFIX}/requests`, summary: 'Forget the journal', access: 'control', internal: true, response: JournalCleared,
    handle: async (_input, context) => {
      context.journal.clear();
      return { cleared: true as const };
    },
  }),
  defineRoute({
    method: 'GET', path: OPENAPI_PATH, summary: 'The OpenAPI 3.1 document of the API', access: 'public', internal: true,
    response: z.record(z.string(), z.unknown()),
    handle: async (_input, context) => context.openApi() as Record<string, unknown>,
  }),
];
