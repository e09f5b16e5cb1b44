/**
 * The OpenAPI 3.1 document of the API, generated from the route table and its zod schemas
 * (JSON Schema 2020-12, OpenAPI 3.1's own dialect). No hand-written copy of any shape.
 */
import * as z from 'zod/mini';
import { SESSION_API_KEY_HEADER } from './auth.js';
import type { FormFields, Route } from './route.js';
import { ERROR_RESPONSES } from './status.js';

type JsonSchema = Record<string, unknown>;

function jsonSchema(schema: z.ZodMiniType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  return rest;
}

const jsonContent = (schema: JsonSchema) => ({ 'application/json': { schema } });

function parameters(route: Route): JsonSchema[] {
  const out: JsonSchema[] = [];
  const declared = route.params
    ? ((jsonSchema(route.params, 'input') as { properties?: Record<string, JsonSchema> }).properties ?? {})
    : {};
  for (const match of route.path.matchAll(/:(\w+)/g)) {
    out.push({ name: match[1], in: 'path', required: true, schema: declared[match[1]!] ?? { type: 'string' } });
  }
  if (route.query) {
    const schema = jsonSchema(route.query, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      const list = route.lists?.includes(name) ?? false;
      out.push({
        name,
        in: 'query',
        required: schema.required?.includes(name) ?? false,
        schema: property,
        ...(list ? { style: 'form', explode: true } : {}),
      });
    }
  }
  return out;
}

/** Facts about the served API that the document states. */
export interface OpenApiInfo {
  /** Version of fakehands. */
  version: string;
  /** URL the API is served at (relative to where the document is served, so every transport answers the same). */
  serverUrl: string;
}

/** The JSON Schema of a multipart form: files as binary strings, every field required. */
function formSchema(fields: FormFields): JsonSchema {
  const binary = { type: 'string', format: 'binary' };
  const properties = Object.fromEntries(
    Object.entries(fields).map(([name, kind]) => [
      name,
      kind === 'file' ? binary : kind === 'files' ? { type: 'array', items: binary } : { type: 'string' },
    ]),
  );
  return { type: 'object', properties, required: Object.keys(fields) };
}

/** A route's JSON body as the document declares it: `documentedBody` when given; optional and nullable with `bodyNullable`. */
function requestBody(route: Route, body: z.ZodMiniType): JsonSchema {
  const declared = route.documentedBody ?? body;
  const schema = route.bodyNullable ? jsonSchema(z.nullable(declared), 'input') : jsonSchema(declared, 'input');
  return { required: !route.bodyNullable, content: jsonContent(schema) };
}

/**
 * Builds the OpenAPI 3.1 document of every route that is not `internal`.
 * @example
 * const document = openApiDocument(routes, { version: '0.1.0', serverUrl: 'http://127.0.0.1:3000' })
 */
export function openApiDocument(routes: readonly Route[], info: OpenApiInfo): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    if (route.internal) continue;
    const path = route.path.replace(/:(\w+)\*?/g, '{$1}');
    const responses: Record<string, JsonSchema> = {
      [route.successStatus ?? 200]: {
        description: 'Successful Response',
        content: jsonContent(route.untypedInDocument ? {} : jsonSchema(route.response, 'output')),
      },
    };
    for (const status of [401, ...(route.errors ?? []), 422]) {
      const error = ERROR_RESPONSES[status]!;
      responses[status] = { description: error.description, content: jsonContent(jsonSchema(error.schema, 'output')) };
    }
    paths[path] ??= {};
    paths[path]![route.method.toLowerCase()] = {
      summary: route.summary,
      operationId: `${route.method.toLowerCase()}_${route.path.replace(/[^a-zA-Z0-9]+/g, '_').replace(/^_|_$/g, '')}`,
      tags: [route.path.startsWith('/api/v1/') ? route.path.split('/')[3]! : 'legacy'],
      parameters: parameters(route),
      ...(route.body ? { requestBody: requestBody(route, route.body) } : {}),
      ...(route.form ? { requestBody: { required: true, content: { 'multipart/form-data': { schema: formSchema(route.form) } } } } : {}),
      responses,
      security: [{ SessionApiKey: [] }],
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Conversation and Sandbox Service (fakehands)',
      version: info.version,
      description: 'The OpenHands app server API as served by fakehands, generated from its zod schemas.',
    },
    servers: [{ url: info.serverUrl }],
    paths,
    components: {
      securitySchemes: {
        SessionApiKey: { type: 'apiKey', in: 'header', name: SESSION_API_KEY_HEADER.replace(/(^|-)\w/g, (c) => c.toUpperCase()) },
      },
    },
  };
}
