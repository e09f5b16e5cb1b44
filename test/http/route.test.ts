/**
 * `defineRoute`: a handler's path parameters are typed from the route's path, so a handler that
 * reads a parameter its path does not have fails to compile (`tsc --noEmit` is part of `npm test`).
 */
import { describe, expect, expectTypeOf, test } from 'vitest';
import * as z from 'zod/mini';
import { defineRoute, type PathParamNames, type PathParams } from '../../src/http/route.js';

describe('defineRoute', () => {
  test('names every `:name` and `:name*` parameter of a path', () => {
    expectTypeOf<PathParamNames<'/api/v1/sandboxes/:sandbox_id/pause'>>().toEqualTypeOf<'sandbox_id'>();
    expectTypeOf<PathParamNames<'/api/conversations/:conversation_id/events/:event_id'>>().toEqualTypeOf<'conversation_id' | 'event_id'>();
    expectTypeOf<PathParamNames<'/api/file/download/:path*'>>().toEqualTypeOf<'path'>();
    expectTypeOf<PathParamNames<'/health'>>().toEqualTypeOf<never>();
    expectTypeOf<PathParams<'/api/v1/sandboxes/:sandbox_id'>>().toEqualTypeOf<{ readonly sandbox_id: string }>();
  });

  test('hands the handler exactly the parameters of its path, each a string', async () => {
    const seen: string[] = [];
    const route = defineRoute({
      method: 'POST',
      path: '/api/v1/sandboxes/:sandbox_id/pause',
      summary: 'Pause a sandbox',
      response: z.boolean(),
      handle: async ({ params }) => {
        expectTypeOf(params.sandbox_id).toEqualTypeOf<string>();
        // @ts-expect-error -- the path has no `conversation_id`
        seen.push(String(params.conversation_id));
        seen.push(params.sandbox_id);
        return true;
      },
    });
    const context = undefined as never;
    const input = { params: { sandbox_id: 'sb1' }, query: undefined, body: undefined, headers: new Headers() };
    expect(await route.handle(input, context)).toBe(true);
    expect(seen).toEqual(['undefined', 'sb1']);
  });
});
