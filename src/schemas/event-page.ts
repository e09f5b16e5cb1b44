/**
 * A page of events as the routes answer it, each item under its kind's schema (`Event`, the union
 * of `sdk-events.ts`). A module of its own, imported by the events routes (later route tables):
 * building the union's ~300 schemas costs about 150 ms of CPU at import, which `import('fakehands')`
 * no longer pays (BENCHMARKS "Import cost").
 */
import * as z from 'zod/mini';
import type { AgentEvent } from './agent-server.js';
import { Event } from './sdk-events.js';

/** The newest names of the kinds older agent servers called otherwise (`domain/agent/dialect.ts`). */
const NEWEST_KIND: Readonly<Record<string, string>> = {
  ExecuteBashAction: 'TerminalAction',
  ExecuteBashObservation: 'TerminalObservation',
};

/**
 * An event as the newest dialect writes it, for the check: an older dialect's renamed kinds read
 * as their newest names, and its `tools` in the OpenAI function form (servers before 1.7.0) left
 * unchecked. The documents describe the newest dialect (the AsyncAPI one renames for older ones).
 */
function inNewestDialect(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  const event = value as Record<string, unknown>;
  const renamed = (inner: unknown) => {
    const kind = (inner as { kind?: unknown } | null)?.kind;
    return typeof kind === 'string' && NEWEST_KIND[kind] ? { ...(inner as object), kind: NEWEST_KIND[kind] } : inner;
  };
  const functions = Array.isArray(event.tools) && event.tools.some((tool) => (tool as { type?: unknown } | null)?.type === 'function');
  return {
    ...event,
    ...('action' in event ? { action: renamed(event.action) } : {}),
    ...('observation' in event ? { observation: renamed(event.observation) } : {}),
    ...(functions ? { tools: [] } : {}),
  };
}

/**
 * An event of any kind, with its kind's fields (`Event`: the union of every kind, told apart by
 * `kind`). The documents and the contract check (`checkResponses`) read the union; to TypeScript
 * it is the domain's event (`AgentEvent`: its kind's fields besides the common four), which the
 * builders of `domain/agent/` fill and a test checks against the union (test/agent-server/showcase-schemas.test.ts).
 */
export const AnyEvent = z.pipe(z.transform(inNewestDialect), Event) as unknown as z.ZodMiniType<z.output<typeof AgentEvent>>;

/** A page of events (`EventPage`): each item under its kind's schema. */
export const EventPage = z.object({ items: z.array(AnyEvent), next_page_id: z.nullable(z.string()) });
