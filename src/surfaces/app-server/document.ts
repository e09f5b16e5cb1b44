/**
 * `GET /openapi.json`: the document of the API routes, as FastAPI serves its own. Loaded with the
 * later routes (it needs every route, and zod's JSON Schema writer, which a page rarely needs).
 */
import * as z from 'zod/mini';
import { openApiDocument } from '../../http/openapi.js';
import { defineRoute } from '../../http/route.js';
import type { Instance } from '../../instance/instance.js';
import { OPENAPI_PATH } from './paths.js';
import { apiRoutes } from './routes/all.js';

/** The document of each instance, made once (the routes never change). */
const documents = new WeakMap<Instance, unknown>();

/** The route of the OpenAPI document. */
export const documentRoute = defineRoute({
  method: 'GET',
  path: OPENAPI_PATH,
  summary: 'The OpenAPI 3.1 document of the API',
  public: true,
  internal: true,
  response: z.record(z.string(), z.unknown()),
  handle: async (_input, instance) => {
    if (!documents.has(instance)) {
      const serverUrl = new URL(instance.options.baseUrl).pathname.replace(/\/+$/, '') || '/';
      documents.set(instance, openApiDocument(apiRoutes, { version: instance.version, serverUrl }));
    }
    return documents.get(instance) as Record<string, unknown>;
  },
});
