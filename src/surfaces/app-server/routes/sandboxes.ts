/** Routes of sandboxes and sandbox specs under `/api/v1/sandboxes` and `/api/v1/sandbox-specs`. */
import * as z from 'zod/mini';
import { Success } from '../../../schemas/common.js';
import { batchOf, pageOf } from '../../../schemas/helpers.js';
import { SandboxInfo } from '../../../schemas/sandbox.js';
import { SandboxSpecInfo } from '../../../schemas/sandbox-spec.js';
import { defineRoute, type Route } from '../../../http/route.js';
import { PageQuery, idList, pageRequestOf } from './query.js';
import {
  deleteSandbox,
  getSandboxSpecs,
  getSandboxes,
  pauseSandbox,
  resumeSandbox,
  searchSandboxSpecs,
  searchSandboxes,
  startSandbox,
} from '../../../domain/sandboxes/sandboxes.js';

/** Most ids a sandbox batch get takes: the real route asserts `len(id) < 100`. */
const MAX_SANDBOX_BATCH_IDS = 99;

/** The sandbox and sandbox spec routes. */
export const sandboxRoutes: readonly Route[] = [
  defineRoute({
    method: 'GET',
    path: '/api/v1/sandboxes/search',
    summary: 'Search sandboxes, newest first',
    query: PageQuery,
    response: pageOf(SandboxInfo),
    handle: ({ query }, { runner }) => runner.run(searchSandboxes, pageRequestOf(query)),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/sandboxes',
    summary: 'Batch get sandboxes by id (null for missing ones)',
    // The real route asserts fewer than 100 ids (sandbox_router.py, batch_get_sandboxes): 100 is a 500 there, a 422 here.
    query: z.object({ id: idList(z.string(), MAX_SANDBOX_BATCH_IDS) }),
    lists: ['id'],
    response: batchOf(SandboxInfo),
    handle: ({ query }, { runner }) => runner.run(getSandboxes, query.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/v1/sandboxes',
    summary: 'Start a sandbox from a sandbox spec (the default one when omitted)',
    query: z.object({ sandbox_spec_id: z.optional(z.string()) }),
    response: SandboxInfo,
    errors: [404],
    handle: ({ query }, { runner }) => runner.run(startSandbox, query.sandbox_spec_id ?? null),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/v1/sandboxes/:sandbox_id/pause',
    summary: 'Pause a sandbox (its conversations stop); an ERROR sandbox stays in ERROR',
    response: Success,
    errors: [404],
    handle: ({ params }, { runner }) => runner.run(pauseSandbox, params.sandbox_id),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/v1/sandboxes/:sandbox_id/resume',
    summary: 'Resume a sandbox (STARTING, then RUNNING)',
    response: Success,
    errors: [404],
    handle: ({ params }, { runner }) => runner.run(resumeSandbox, params.sandbox_id),
  }),
  defineRoute({
    // The path parameter is `id`, but the real function reads a required query parameter `sandbox_id` (sandbox_router.py, delete_sandbox).
    method: 'DELETE',
    path: '/api/v1/sandboxes/:id',
    summary: 'Delete a sandbox (it becomes MISSING); the sandbox is named by the sandbox_id query parameter',
    query: z.object({ sandbox_id: z.string() }),
    response: Success,
    errors: [404],
    handle: ({ query }, { runner }) => runner.run(deleteSandbox, query.sandbox_id),
  }),

  defineRoute({
    method: 'GET',
    path: '/api/v1/sandbox-specs/search',
    summary: 'Search sandbox specs',
    query: PageQuery,
    response: pageOf(SandboxSpecInfo),
    handle: ({ query }, { runner }) => runner.run(searchSandboxSpecs, pageRequestOf(query)),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/sandbox-specs',
    summary: 'Batch get sandbox specs by id (null for missing ones)',
    query: z.object({ id: idList(z.string()) }),
    lists: ['id'],
    response: batchOf(SandboxSpecInfo),
    handle: ({ query }, { runner }) => runner.run(getSandboxSpecs, query.id),
  }),
];
