/**
 * The agent server's MCP probes (`/api/mcp/*`): test a candidate MCP server before it is saved, and
 * the install-time OAuth probe (start, status, callback). Copies openhands-agent-server
 * `mcp_router.py` (test_mcp_server, `_run_tool_call`, start_mcp_oauth, get_mcp_oauth_status,
 * submit_mcp_oauth_callback, `_validate_callback_url`).
 *
 * Nothing connects anywhere: the fake's network is the fake. A remote server connects unless its
 * host is reserved as unreachable (a name under `.invalid`, RFC 2606); a stdio server starts when
 * its command is a launcher a sandbox has (`npx`, `uvx`, `node`, `python`, `python3`, `docker`,
 * `deno`, `bunx`). A server that connects advertises the fake's MCP tools (`MCP_TOOLS`); a
 * requested tool call answers "ok", or the real error text for a tool not advertised. An OAuth job
 * hands out an authorization URL on the server's origin and waits for the browser's redirect to its
 * loopback callback: a callback with a `code` completes it, one with an `error` (or no code) fails it
 * as the callback server's HTTP 400. The real probe returns the OAuth tokens it acquired as
 * `oauth_state`; the fake acquires none and answers none.
 *
 * The OAuth jobs stay in memory beside the store, per state (a WeakMap: a reset or a tenant starts
 * afresh), not in the agent world (`world.ts`): the real server keeps them in a module-level dict
 * (`_oauth_probe_jobs`) for 15 minutes, so a restart forgets them there too; a probe saves nothing.
 */
import { badRequest, type Refusal, refuse } from '../store/refusal.js';
import type { DomainState } from '../store/state.js';

/** The tools every MCP server the fake connects to advertises. */
export const MCP_TOOLS: readonly string[] = Object.freeze(['fetch', 'list_resources', 'search']);
/** Launchers a stdio MCP server may be started with in the fake's sandbox. */
const LAUNCHERS = new Set(['npx', 'uvx', 'node', 'python', 'python3', 'docker', 'deno', 'bunx']);
/** How long an OAuth job is kept (`_OAUTH_PROBE_JOB_TTL_SECONDS`), in ms. */
export const OAUTH_JOB_TTL_MS = 15 * 60 * 1000;
/**
 * Most OAuth jobs one host keeps: a new one lets go of the oldest finished job first, else the
 * oldest (its status then answers 404, as an expired one). The real server keeps every job until
 * its time to live, each with its whole request.
 */
export const MAX_OAUTH_JOBS = 100;
/** Most characters one OAuth job keeps (its URLs, the tool it calls, its outcome); a start whose job would hold more is refused with a 400. */
export const MAX_OAUTH_JOB_CHARS = 8 * 1024;

/** A candidate server, as validated (`_StdioMCPServerSpec` or `_RemoteMCPServerSpec`, after normalisation). */
export type McpServerSpec =
  | { type: 'stdio'; command: string }
  | { type: 'http' | 'shttp' | 'streamable-http' | 'sse'; url: string; auth?: { strategy: string } | null };

/** `MCPTestRequest`, as validated. */
export interface McpTestRequest {
  name: string;
  server: McpServerSpec;
  timeout: number;
  tool_call?: { name: string; arguments: Record<string, unknown> } | null | undefined;
}

type ErrorKind = 'timeout' | 'connection' | 'unknown';
/** `MCPTestSuccess` | `MCPTestFailure` (nulls left out, as the route's `response_model_exclude_none`). */
export type McpTestResponse =
  | { ok: true; tools: string[]; tool_result?: { is_error: boolean; text: string } }
  | { ok: false; error: string; error_kind: ErrorKind };

/** `MCPOAuthStartResponse`, nulls left out. */
export interface McpOAuthStart {
  ok: boolean;
  job_id?: string;
  authorization_url?: string;
  error?: string;
  error_kind?: ErrorKind;
}

/** `MCPOAuthStatusResponse`, nulls left out. */
export interface McpOAuthStatus {
  ok: boolean;
  status: 'pending' | 'authorizing' | 'succeeded' | 'failed';
  job_id: string;
  authorization_url?: string;
  callback_ready: boolean;
  tools?: string[];
  tool_result?: { is_error: boolean; text: string };
  error?: string;
  error_kind?: ErrorKind;
}

interface OAuthJob {
  id: string;
  /** What the job needs of its request: the tool call's name (never its arguments). */
  request: Pick<McpTestRequest, 'tool_call'>;
  createdAt: number;
  authorizationUrl: string | null;
  callbackUrl: string | null;
  result: McpTestResponse | null;
}

const jobs = new WeakMap<DomainState, Map<string, OAuthJob>>();
const jobsOf = (state: DomainState) => {
  let held = jobs.get(state);
  if (!held) {
    held = new Map();
    jobs.set(state, held);
  }
  return held;
};

/** Why a candidate server cannot be reached, or null when it can. */
function unreachable(server: McpServerSpec): McpTestResponse | null {
  if (server.type === 'stdio') {
    const launcher = server.command.trim().split(/\s+/)[0]!.split('/').at(-1)!;
    return LAUNCHERS.has(launcher)
      ? null
      : { ok: false, error: `[Errno 2] No such file or directory: '${server.command}'`, error_kind: 'connection' };
  }
  let host: string;
  try {
    host = new URL(server.url).hostname;
  } catch {
    return { ok: false, error: `Invalid URL: ${server.url}`, error_kind: 'unknown' };
  }
  return host === 'invalid' || host.endsWith('.invalid')
    ? { ok: false, error: `[Errno -2] Name or service not known: '${host}'`, error_kind: 'connection' }
    : null;
}

/** What a server that connected answers: its tools, and the requested tool call's outcome (`_run_tool_call`). */
function connected(request: Pick<McpTestRequest, 'tool_call'>): McpTestResponse {
  const tools = [...MCP_TOOLS];
  if (!request.tool_call) return { ok: true, tools };
  const { name } = request.tool_call;
  return {
    ok: true,
    tools,
    tool_result: tools.includes(name)
      ? { is_error: false, text: 'ok' }
      : { is_error: true, text: `Tool '${name}' not advertised by server (available: ${tools.join(', ')})` },
  };
}

/** `POST /api/mcp/test` (test_mcp_server): 200 whether or not the server works; `ok` says which. */
export function testMcpServer(_state: DomainState, request: McpTestRequest): McpTestResponse {
  return unreachable(request.server) ?? connected(request);
}

/** Drops the jobs older than their time to live (`_sweep_oauth_probe_jobs_locked`). */
function sweep(state: DomainState): void {
  const now = state.clock.now();
  for (const [id, job] of jobsOf(state)) if (now - job.createdAt > OAUTH_JOB_TTL_MS) jobsOf(state).delete(id);
}

/** The characters a job holds. */
const jobChars = (job: OAuthJob) =>
  (job.authorizationUrl?.length ?? 0) +
  (job.callbackUrl?.length ?? 0) +
  (job.request.tool_call?.name.length ?? 0) +
  (job.result?.ok === false ? job.result.error.length : 0);

/** Keeps a new job, letting go of the oldest finished one (else the oldest) at `MAX_OAUTH_JOBS`. */
function keep(state: DomainState, job: OAuthJob): void {
  const held = jobsOf(state);
  if (held.size >= MAX_OAUTH_JOBS) {
    let oldest: string | undefined;
    for (const [id, other] of held) {
      oldest ??= id;
      if (other.result !== null) {
        oldest = id;
        break;
      }
    }
    held.delete(oldest!);
  }
  held.set(job.id, job);
}

/** `POST /api/mcp/oauth/start` (start_mcp_oauth): 400 unless the server's auth is OAuth 2. */
export function startMcpOAuth(state: DomainState, request: McpTestRequest): McpOAuthStart | Refusal {
  const { server } = request;
  if (server.type === 'stdio' || server.auth?.strategy !== 'oauth2') return badRequest("MCP OAuth start requires auth.strategy='oauth2'");
  sweep(state);
  const job: OAuthJob = {
    id: state.random.uuid().replaceAll('-', ''),
    request: { tool_call: request.tool_call ? { name: request.tool_call.name, arguments: {} } : null },
    createdAt: state.clock.now(),
    authorizationUrl: null,
    callbackUrl: null,
    result: null,
  };
  const failure = unreachable(server);
  if (failure && !failure.ok) {
    job.result = failure;
    const refused = tooLarge(job);
    if (refused) return refused;
    keep(state, job);
    return { ok: false, job_id: job.id, error: failure.error, error_kind: failure.error_kind };
  }
  // FastMCP's callback server listens on a free loopback port; the redirect names it.
  const callback = `http://localhost:${state.random.int(20000, 60000)}/callback`;
  const authorize = new URL('/authorize', server.url);
  authorize.search = new URLSearchParams({
    response_type: 'code',
    client_id: `fakehands-${job.id.slice(0, 8)}`,
    redirect_uri: callback,
    state: job.id.slice(16),
  }).toString();
  job.authorizationUrl = authorize.toString();
  job.callbackUrl = callback;
  const refused = tooLarge(job);
  if (refused) return refused;
  keep(state, job);
  return { ok: true, job_id: job.id, authorization_url: job.authorizationUrl };
}

/** The 400 of a job that would hold more than `MAX_OAUTH_JOB_CHARS`, or null. */
function tooLarge(job: OAuthJob): Refusal | null {
  const chars = jobChars(job);
  return chars > MAX_OAUTH_JOB_CHARS
    ? badRequest(
        `MCP OAuth probe too large: its URLs, tool call name and outcome hold ${chars} characters, at most ${MAX_OAUTH_JOB_CHARS} (a fakehands bound)`,
      )
    : null;
}

/** A job's status (`_MCPOAuthProbeJob.to_status_response`). */
function statusOf(job: OAuthJob): McpOAuthStatus {
  const base = {
    job_id: job.id,
    ...(job.authorizationUrl ? { authorization_url: job.authorizationUrl } : {}),
    callback_ready: job.callbackUrl !== null,
  };
  if (job.result?.ok === true)
    return {
      ok: true,
      status: 'succeeded',
      ...base,
      tools: job.result.tools,
      ...(job.result.tool_result ? { tool_result: job.result.tool_result } : {}),
    };
  if (job.result?.ok === false) return { ok: false, status: 'failed', ...base, error: job.result.error, error_kind: job.result.error_kind };
  return { ok: true, status: job.authorizationUrl ? 'authorizing' : 'pending', ...base };
}

const jobGone = () => refuse('not_found', 'MCP OAuth job not found');

/** `GET /api/mcp/oauth/status/{job_id}` (get_mcp_oauth_status): 404 for an unknown or expired job. */
export function mcpOAuthStatus(state: DomainState, jobId: string): McpOAuthStatus | Refusal {
  sweep(state);
  const job = jobsOf(state).get(jobId);
  return job ? statusOf(job) : jobGone();
}

/**
 * `POST /api/mcp/oauth/callback/{job_id}` (submit_mcp_oauth_callback, `_validate_callback_url`):
 * the redirect the browser landed on, checked against the job's loopback callback, then delivered.
 */
export function submitMcpOAuthCallback(state: DomainState, jobId: string, callbackUrl: string): McpOAuthStatus | Refusal {
  sweep(state);
  const job = jobsOf(state).get(jobId);
  if (!job) return jobGone();
  let given: URL;
  try {
    given = new URL(callbackUrl);
  } catch {
    return badRequest('Invalid OAuth callback URL');
  }
  if (given.protocol !== 'http:' || !['localhost', '127.0.0.1', '[::1]'].includes(given.hostname))
    return badRequest('Invalid OAuth callback URL');
  if (job.callbackUrl === null) return refuse('conflict', 'OAuth callback is not ready');
  const expected = new URL(job.callbackUrl);
  if (given.port !== expected.port || given.pathname !== expected.pathname) return badRequest('Unexpected OAuth callback URL');
  if (job.result) return statusOf(job);
  if (given.searchParams.has('error') || !given.searchParams.get('code')) {
    // The callback server answers a redirect without a code with 400; the job itself goes on waiting.
    return { ...statusOf(job), ok: false, status: 'failed', error: 'OAuth callback returned HTTP 400', error_kind: 'connection' };
  }
  job.result = connected(job.request);
  return statusOf(job);
}
