/**
 * The agent server's shell: `/api/bash/*` (openhands-agent-server `bash_router.py`; each route
 * names its function). Its socket, `/sockets/bash-events`, is `bash-socket.ts`.
 */
import * as z from 'zod/mini';
import { clearBashEvents, executeBashCommand, startBashCommand, stopBashCommand } from '../../domain/agent-world/bash.js';
import { batchGetBashEvents, getBashEvent, searchBashEvents } from '../../domain/agent-world/bash-search.js';
import { Refusal, refuse } from '../../domain/store/refusal.js';
import { laxInt } from '../../schemas/helpers.js';
import { Uuid } from '../../schemas/common.js';
import { BashEvent } from '../../schemas/bash.js';
import { defineRoute, type Route } from '../../http/route.js';
import { QueryDateTime } from '../../schemas/query-datetime.js';
import { hostWide } from './host-wide.js';

/** `ExecuteBashRequest`. */
export const ExecuteBashRequest = z.object({
  command: z.string(),
  cwd: z.optional(z.nullable(z.string())),
  timeout: z._default(z.int(), 300),
});
const naive = (value: string | undefined) => value?.replace(/(Z|[+-]\d{2}:\d{2})$/, '');

/** The bash routes. */
export const bashRoutes: readonly Route[] = hostWide([
  defineRoute({
    method: 'GET',
    path: '/api/bash/bash_events/search',
    summary: 'A page of bash events (bash_router.py, search_bash_events)',
    query: z.object({
      kind__eq: z.optional(z.enum(['BashCommand', 'BashOutput'])),
      command_id__eq: z.optional(Uuid),
      timestamp__gte: z.optional(QueryDateTime),
      timestamp__lt: z.optional(QueryDateTime),
      order__gt: z.optional(laxInt(z.int())),
      sort_order: z._default(z.enum(['TIMESTAMP', 'TIMESTAMP_DESC']), 'TIMESTAMP'),
      page_id: z.optional(z.string()),
      limit: z._default(laxInt(z.int().check(z.gt(0), z.lte(100))), 100),
    }),
    response: z.object({ items: z.array(BashEvent), next_page_id: z.nullable(z.string()) }),
    handle: ({ query }, context) =>
      context.runner.run(searchBashEvents, {
        ...query,
        timestamp__gte: naive(query.timestamp__gte),
        timestamp__lt: naive(query.timestamp__lt),
      }),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/bash/bash_events/',
    summary: 'Bash events by id, null for missing ones (bash_router.py, batch_get_bash_events)',
    // FastAPI reads a bare `list[str]` parameter from the body (the client sends a GET with a JSON body); `?event_ids=` is taken too.
    query: z.object({ event_ids: z.optional(z.array(z.string())) }),
    lists: ['event_ids'],
    body: z.optional(z.union([z.array(z.string()), z.strictObject({})])),
    bodyOptional: true,
    response: z.array(z.nullable(BashEvent)),
    handle: ({ query, body }, context) =>
      context.runner.run((state) => {
        const ids = Array.isArray(body) ? body : query.event_ids;
        if (!ids)
          return new Refusal('invalid', 'Field required', {
            errors: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }],
          });
        return batchGetBashEvents(state, ids);
      }),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/bash/bash_events/:event_id',
    summary: 'One bash event (bash_router.py, get_bash_event)',
    params: z.object({ event_id: z.string() }),
    response: BashEvent,
    errors: [404],
    handle: ({ params }, context) => context.runner.run(getBashEvent, params.event_id),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/bash/start_bash_command',
    summary: 'Start a command; its output follows as events (bash_router.py, start_bash_command)',
    body: ExecuteBashRequest,
    response: BashEvent,
    handle: ({ body }, context) =>
      context.runner.run((state) => {
        const started = startBashCommand(state, body);
        return started instanceof Refusal ? started : started.command;
      }),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/bash/execute_bash_command',
    summary: 'Run a command and answer its last output (bash_router.py, execute_bash_command)',
    body: ExecuteBashRequest,
    response: BashEvent,
    handle: ({ body }, context) => context.runner.run(executeBashCommand, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/bash/bash_events',
    summary: 'Clear every bash event (bash_router.py, clear_all_bash_events)',
    response: z.record(z.string(), z.int()),
    handle: (_input, context) => context.runner.run(clearBashEvents),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/bash/bash_commands/:command_id/stop',
    summary: 'Stop a running command; a finished one succeeds too, 404 for an unknown id (bash_router.py, stop_bash_command)',
    params: z.object({ command_id: Uuid }),
    response: z.object({ success: z.boolean() }),
    errors: [404],
    handle: ({ params }, context) =>
      context.runner.run((state) => (stopBashCommand(state, params.command_id) ? { success: true } : refuse('not_found', 'Not Found'))),
  }),
]);
