import type { z } from 'zod';
import type { FakeService } from '../domain/service.js';

/** HTTP methods the API uses. */
export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** Error statuses a route can answer with besides 401/404 (unknown route) and 422. */
export type ErrorStatus = 404 | 409;

/** What a route's handler receives: validated path parameters, query and body. */
export interface RouteInput<Q, B> {
  params: Record<string, string>;
  query: Q;
  body: B;
}

/** One endpoint: where it is, what it accepts, what it answers, and the operation behind it. */
export interface RouteSpec<Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType> {
  /** HTTP method. */
  method: Method;
  /** Path relative to the base URL, with `:name` parameters (`/api/v1/sandboxes/:sandbox_id/pause`). */
  path: string;
  /** One line for the OpenAPI document and the README. */
  summary: string;
  /** Schema of the query parameters (an object schema; unknown parameters are ignored). */
  query?: Q;
  /** Query parameters that may repeat and are read as lists (`ids`, `id`). */
  lists?: readonly string[];
  /** Schema of the JSON body; the body is required when given. */
  body?: B;
  /** Schema of the 200 answer. */
  response: R;
  /** Error statuses this route can answer with, besides 401 and 422. */
  errors?: readonly ErrorStatus[];
  /** The domain operation. */
  handle(input: RouteInput<z.output<Q>, z.output<B>>, service: FakeService): Promise<z.input<R>>;
}

/** A route with its types erased, as the dispatcher and transports hold it. */
export interface Route {
  method: Method;
  path: string;
  summary: string;
  query?: z.ZodType;
  lists?: readonly string[];
  body?: z.ZodType;
  response: z.ZodType;
  errors?: readonly ErrorStatus[];
  handle(input: RouteInput<unknown, unknown>, service: FakeService): Promise<unknown>;
}

/**
 * Declares a route with its handler typed from its schemas.
 * @example
 * defineRoute({ method: 'GET', path: '/api/v1/sandboxes/search', summary: 'Search sandboxes', query: PageQuery, response: pageOf(SandboxInfo), handle: ({ query }, service) => service.searchSandboxes(query) })
 */
export function defineRoute<Q extends z.ZodType = z.ZodUndefined, B extends z.ZodType = z.ZodUndefined, R extends z.ZodType = z.ZodType>(spec: RouteSpec<Q, B, R>): Route {
  return spec as unknown as Route;
}
