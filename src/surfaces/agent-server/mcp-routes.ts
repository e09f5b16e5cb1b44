/**
 * The agent server's MCP probes, `/api/mcp/*` (openhands-agent-server `mcp_router.py`; each route
 * names its function). What a probe finds is `domain/agent-world/mcp.ts`. The request is
 * `MCPTestRequest`: a server without a `type` is normalised first (`transport`, else `stdio` for a
 * `command`, else `http`), then checked as its kind, with pydantic's error items.
 */
import * as z from 'zod/mini';
import { mcpOAuthStatus, type McpServerSpec, startMcpOAuth, submitMcpOAuthCallback, testMcpServer } from '../../domain/agent-world/mcp.js';
import { defineRoute, type Route } from '../../http/route.js';
import { hostWide } from './host-wide.js';

const TAGS = ['stdio', 'http', 'shttp', 'streamable-http', 'sse'] as const;
const STRATEGIES = ['none', 'api_key', 'bearer', 'basic', 'header', 'oauth2'] as const;
const quoted = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A pydantic error item as a zod issue (`validation.ts` reads `params.pydantic`). */
type Issue = { path: (string | number)[]; type: string; msg: string; input: unknown; ctx?: Record<string, unknown> };

/** The problems of a candidate server (`MCPTestServerSpec` after `_normalize_native_server_transport`), and its spec when none. */
function checkServer(server: Record<string, unknown>): { issues: Issue[]; spec?: McpServerSpec } {
  const type = String(server.type ?? server.transport ?? ('command' in server ? 'stdio' : 'http'));
  const at = ['server', type];
  if (!(TAGS as readonly string[]).includes(type))
    return {
      issues: [
        {
          path: ['server'],
          type: 'union_tag_invalid',
          msg: `Input tag '${type}' found using 'type' does not match any of the expected tags: ${quoted(TAGS)}`,
          input: server,
          ctx: { discriminator: "'type'", tag: type, expected_tags: quoted(TAGS) },
        },
      ],
    };
  const field = type === 'stdio' ? 'command' : 'url';
  const value = server[field];
  if (value === undefined) return { issues: [{ path: [...at, field], type: 'missing', msg: 'Field required', input: server }] };
  if (typeof value !== 'string')
    return { issues: [{ path: [...at, field], type: 'string_type', msg: 'Input should be a valid string', input: value }] };
  if (value.length === 0)
    return {
      issues: [
        {
          path: [...at, field],
          type: 'string_too_short',
          msg: 'String should have at least 1 character',
          input: value,
          ctx: { min_length: 1 },
        },
      ],
    };
  if (type === 'stdio') return { issues: [], spec: { type: 'stdio', command: value } };
  const auth = server.auth;
  if (auth !== undefined && auth !== null) {
    const strategy = isObject(auth) ? String(auth.strategy) : undefined;
    if (!strategy || !(STRATEGIES as readonly string[]).includes(strategy))
      return {
        issues: [
          {
            path: [...at, 'auth'],
            type: 'union_tag_invalid',
            msg: `Input tag '${strategy}' found using 'strategy' does not match any of the expected tags: ${quoted(STRATEGIES)}`,
            input: auth,
            ctx: { discriminator: "'strategy'", tag: String(strategy), expected_tags: quoted(STRATEGIES) },
          },
        ],
      };
    const headers = isObject(server.headers) ? Object.keys(server.headers) : [];
    if (headers.some((name) => name.toLowerCase() === 'authorization'))
      return {
        issues: [
          {
            path: at,
            type: 'value_error',
            msg: "Value error, 'auth' cannot be combined with an explicit top-level 'Authorization' header; use auth.strategy='header' instead.",
            input: server,
            ctx: { error: {} },
          },
        ],
      };
    return { issues: [], spec: { type: type as Exclude<McpServerSpec['type'], 'stdio'>, url: value, auth: { strategy } } };
  }
  return { issues: [], spec: { type: type as Exclude<McpServerSpec['type'], 'stdio'>, url: value, auth: null } };
}

/** `MCPTestRequest`. */
const MCPTestRequest = z
  .object({
    name: z._default(z.string().check(z.minLength(1), z.maxLength(128)), 'test-server'),
    server: z.record(z.string(), z.unknown()),
    timeout: z._default(z.number().check(z.gt(0), z.lte(120)), 15),
    tool_call: z.optional(
      z.nullable(z.object({ name: z.string().check(z.minLength(1)), arguments: z._default(z.record(z.string(), z.unknown()), {}) })),
    ),
  })
  .check(
    z.superRefine((body, ctx) => {
      if ('authentication' in body.server && !('type' in body.server)) {
        ctx.addIssue({
          code: 'custom',
          message: 'OAuth authentication metadata belongs under auth.authentication.',
          input: body,
          path: [],
        });
        return;
      }
      for (const issue of checkServer(body.server).issues)
        ctx.addIssue({
          code: 'custom',
          message: issue.msg,
          input: issue.input,
          path: issue.path,
          params: { pydantic: { type: issue.type, msg: issue.msg, ctx: issue.ctx } },
        });
    }),
  );
type TestBody = z.output<typeof MCPTestRequest>;
/** The validated request as the domain reads it (the server checked by the schema above). */
const asRequest = (body: TestBody) => ({ ...body, name: body.name.trim() || 'test-server', server: checkServer(body.server).spec! });

const ErrorKind = z.enum(['timeout', 'connection', 'unknown']);
const ToolResult = z.object({ is_error: z.boolean(), text: z.string() });
/** `MCPTestResponse` (`MCPTestSuccess` | `MCPTestFailure`). */
const MCPTestResponse = z.union([
  z.object({ ok: z.literal(true), tools: z.array(z.string()), tool_result: z.optional(ToolResult) }),
  z.object({ ok: z.literal(false), error: z.string(), error_kind: ErrorKind }),
]);
/** `MCPOAuthStatusResponse`. */
const MCPOAuthStatusResponse = z.object({
  ok: z.boolean(),
  status: z.enum(['pending', 'authorizing', 'succeeded', 'failed']),
  job_id: z.string(),
  authorization_url: z.optional(z.string()),
  callback_ready: z.boolean(),
  tools: z.optional(z.array(z.string())),
  tool_result: z.optional(ToolResult),
  error: z.optional(z.string()),
  error_kind: z.optional(ErrorKind),
});
const JobParam = z.object({ job_id: z.string() });

/** The MCP routes. */
export const mcpRoutes: readonly Route[] = hostWide([
  defineRoute({
    method: 'POST',
    path: '/api/mcp/test',
    summary: 'Connect to a candidate MCP server and list its tools; 200 with ok false when it fails (mcp_router.py, test_mcp_server)',
    body: MCPTestRequest,
    response: MCPTestResponse,
    handle: ({ body }, context) => context.runner.run(testMcpServer, asRequest(body)),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/mcp/oauth/start',
    summary: "Start an OAuth install probe; 400 unless auth.strategy is 'oauth2' (mcp_router.py, start_mcp_oauth)",
    body: MCPTestRequest,
    response: z.object({
      ok: z.boolean(),
      job_id: z.optional(z.string()),
      authorization_url: z.optional(z.string()),
      error: z.optional(z.string()),
      error_kind: z.optional(ErrorKind),
    }),
    errors: [400],
    handle: ({ body }, context) => context.runner.run(startMcpOAuth, asRequest(body)),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/mcp/oauth/status/:job_id',
    summary: 'The state of an OAuth install probe; 404 for an unknown one (mcp_router.py, get_mcp_oauth_status)',
    params: JobParam,
    response: MCPOAuthStatusResponse,
    errors: [404],
    handle: ({ params }, context) => context.runner.run(mcpOAuthStatus, params.job_id),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/mcp/oauth/callback/:job_id',
    summary: "The browser's OAuth redirect, delivered to the probe (mcp_router.py, submit_mcp_oauth_callback)",
    params: JobParam,
    body: z.object({ callback_url: z.string().check(z.minLength(1)) }),
    response: MCPOAuthStatusResponse,
    errors: [400, 404, 409],
    handle: ({ params, body }, context) => context.runner.run(submitMcpOAuthCallback, params.job_id, body.callback_url),
  }),
]);
