/**
 * The app server's routes on a conversation's events (`event_router.py` of the app server), reading
 * the same log the agent server streams: the newest `/api/v1/conversation/{id}/events/...` and the
 * `/api/v1/events/...?conversation_id__eq=` the Nov 2025 web client asks before it calls history loaded.
 */
import * as z from 'zod/mini';
import { batchGetEvents, countEvents, searchEvents } from '../../../domain/agent/agent-server.js';
import { toHyphenatedUuid } from '../../../domain/store/ids.js';
import type { DomainState } from '../../../domain/store/state.js';
import { EventKind, EventSortOrder, PendingMessageResponse } from '../../../schemas/agent-server.js';
import { AnyEvent, EventPage } from '../../../schemas/event-page.js';
import { Uuid } from '../../../schemas/common.js';
import { laxInt } from '../../../schemas/helpers.js';
import { defineRoute, type Route } from '../../../http/route.js';
import { messageText } from '../../../domain/conversations/start-tasks.js';
import { queuePendingMessage } from '../../../domain/conversations/pending-messages.js';
import { SendMessageRequest } from '../../../schemas/app-conversation.js';
import { QueryDateTime } from '../../../schemas/query-datetime.js';

const Filters = z.object({
  kind__eq: z.optional(EventKind),
  timestamp__gte: z.optional(QueryDateTime),
  timestamp__lt: z.optional(QueryDateTime),
});
const Paging = z.object({
  sort_order: z._default(EventSortOrder, 'TIMESTAMP'),
  page_id: z.optional(z.string()),
  limit: z._default(laxInt(z.int().check(z.gt(0), z.lte(100))), 100),
});
const naive = (value: string | undefined) => value?.replace(/(Z|[+-]\d{2}:\d{2})$/, '');
const filtersOf = (query: z.output<typeof Filters>) => ({
  kind: query.kind__eq,
  timestamp__gte: naive(query.timestamp__gte),
  timestamp__lt: naive(query.timestamp__lt),
});

/** The V1 conversation of `id`, or `undefined`: an unknown one has no events (an empty page, a count of 0). */
function conversationOf(state: DomainState, id: string) {
  const key = toHyphenatedUuid(id);
  const conversation = key ? state.store.conversations.get(key) : undefined;
  return conversation?.version === 'V1' ? conversation : undefined;
}

/** The event routes of the app server. */
export const eventRoutes: readonly Route[] = [
  defineRoute({
    method: 'POST',
    path: '/api/v1/conversations/:conversation_id/pending-messages',
    summary:
      "Queue a message for a conversation still starting (by its id or its start task's); delivered once it is ready (201; 429 past 10)",
    params: z.object({ conversation_id: Uuid }),
    body: SendMessageRequest,
    response: PendingMessageResponse,
    successStatus: 201,
    errors: [404, 429],
    handle: ({ params, body }, { runner }) => runner.run(queuePendingMessage, params.conversation_id, messageText(body.content)),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/conversation/:conversation_id/events/search',
    summary: "A page of a conversation's events",
    params: z.object({ conversation_id: Uuid }),
    query: z.extend(Filters, Paging.shape),
    response: EventPage,
    handle: ({ params, query }, { runner }) =>
      runner.run((state) => {
        const conversation = conversationOf(state, params.conversation_id);
        return conversation
          ? searchEvents(state, conversation, {
              ...filtersOf(query),
              sort_order: query.sort_order,
              page_id: query.page_id,
              limit: query.limit,
            })
          : { items: [], next_page_id: null };
      }),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/conversation/:conversation_id/events/count',
    summary: 'How many events a conversation has',
    params: z.object({ conversation_id: Uuid }),
    query: Filters,
    response: z.int().check(z.gte(0)),
    handle: ({ params, query }, { runner }) =>
      runner.run((state) => {
        const conversation = conversationOf(state, params.conversation_id);
        return conversation ? countEvents(state, conversation, filtersOf(query)) : 0;
      }),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/conversation/:conversation_id/events',
    summary: 'Events by id (null for missing ones)',
    params: z.object({ conversation_id: Uuid }),
    query: z.object({ id: z.array(z.string()).check(z.maxLength(100)) }),
    lists: ['id'],
    response: z.array(z.nullable(AnyEvent)),
    handle: ({ params, query }, { runner }) =>
      runner.run((state) => {
        const conversation = conversationOf(state, params.conversation_id);
        return conversation ? batchGetEvents(state, conversation, query.id) : query.id.map(() => null);
      }),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/events/search',
    summary: "A page of a conversation's events (the Nov 2025 route)",
    query: z.extend(z.extend(Filters, Paging.shape), { conversation_id__eq: Uuid }),
    response: EventPage,
    handle: ({ query }, { runner }) =>
      runner.run((state) => {
        const conversation = conversationOf(state, query.conversation_id__eq);
        return conversation
          ? searchEvents(state, conversation, {
              ...filtersOf(query),
              sort_order: query.sort_order,
              page_id: query.page_id,
              limit: query.limit,
            })
          : { items: [], next_page_id: null };
      }),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/events/count',
    summary: 'How many events a conversation has (the Nov 2025 route)',
    query: z.extend(Filters, { conversation_id__eq: Uuid }),
    response: z.int().check(z.gte(0)),
    handle: ({ query }, { runner }) =>
      runner.run((state) => {
        const conversation = conversationOf(state, query.conversation_id__eq);
        return conversation ? countEvents(state, conversation, filtersOf(query)) : 0;
      }),
  }),
];
