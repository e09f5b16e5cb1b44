import * as z from 'zod/mini';

import { laxInt, type PydanticErrorParams } from './helpers.js';

const MAX_HTTP_TIMEOUT_SECONDS = 3600;
const DEFAULT_HTTP_TIMEOUT_SECONDS = 60;
const STDIO_NAME_PATTERN = /^[a-zA-Z0-9_-]+$/;

/** A server entry may be given as a bare URL string; pydantic turns it into `{url}`. */
const urlOrObject = (value: unknown) => (typeof value === 'string' ? { url: value } : value);

/** An MCP server reached over Server-Sent Events. */
export const MCPSSEServerConfig = z.pipe(
  z.transform(urlOrObject),
  z.object({ url: z.string(), api_key: z._default(z.nullable(z.string()), null) }),
);

/** An MCP server reached over streamable HTTP. */
export const MCPSHTTPServerConfig = z.pipe(
  z.transform(urlOrObject),
  z.object({
    url: z.string(),
    api_key: z._default(z.nullable(z.string()), null),
    timeout: z._default(laxInt(z.int().check(z.gt(0), z.lte(MAX_HTTP_TIMEOUT_SECONDS))), DEFAULT_HTTP_TIMEOUT_SECONDS),
  }),
);

/** An MCP server started as a process inside the sandbox. */
export const MCPStdioServerConfig = z.object({
  name: z.string().check(
    z.superRefine((value, ctx) => {
      if (!STDIO_NAME_PATTERN.test(value)) {
        ctx.addIssue({
          code: 'custom',
          message: 'invalid server name',
          input: value,
          params: {
            pydantic: {
              type: 'string_pattern_mismatch',
              msg: `String should match pattern '${STDIO_NAME_PATTERN.source}'`,
              ctx: { pattern: STDIO_NAME_PATTERN.source },
            },
          } satisfies PydanticErrorParams,
        });
      }
    }),
  ),
  command: z.string().check(
    z.superRefine((value, ctx) => {
      if (value.length === 0 || /\s/.test(value)) {
        const msg = 'Value error, Command must be a single executable without spaces';
        ctx.addIssue({
          code: 'custom',
          message: msg,
          input: value,
          params: { pydantic: { type: 'value_error', msg, ctx: { error: {} } } } satisfies PydanticErrorParams,
        });
      }
    }),
  ),
  args: z._default(z.array(z.string()), []),
  env: z._default(z.record(z.string(), z.string()), {}),
});

/** MCP server configuration (`MCPConfig`); unknown keys are rejected. */
export const MCPConfig = z.strictObject({
  sse_servers: z._default(z.array(MCPSSEServerConfig), []),
  stdio_servers: z._default(z.array(MCPStdioServerConfig), []),
  shttp_servers: z._default(z.array(MCPSHTTPServerConfig), []),
});
export type MCPConfig = z.infer<typeof MCPConfig>;
