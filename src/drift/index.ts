/**
 * `fakehands drift`: holds the fake's OpenAPI document against a provider's (the real service's
 * published one, or its `/openapi.json`), operation by operation, fact by fact.
 */
import { FakehandsError } from '../domain/store/errors.js';
import { openApiDocument } from '../http/openapi.js';
import { apiRoutes } from '../surfaces/app-server/routes/all.js';
import { agentRoutes } from '../surfaces/agent-server/routes.js';
import { compareOperations, type DriftReport, type KnownDifference } from './compare.js';
import { KNOWN_AGENT_DIFFERENCES, KNOWN_DIFFERENCES } from './known-differences.js';
import { newestAgentRoutes } from './known-agent-differences.js';
import { loadDocument } from './load.js';
import { operationFacts, type OperationFacts } from './operations.js';

export { agreement, driftPasses, formatReport, type Difference, type DriftReport, type KnownDifference } from './compare.js';
export { readKnownDifferences } from './known-file.js';
export { KNOWN_AGENT_DIFFERENCES, KNOWN_DIFFERENCES } from './known-differences.js';

/** Path prefixes under which every provider operation is expected to be served by the fake. */
export const DRIFT_PREFIXES = Object.freeze([
  '/api/v1/app-conversations',
  '/api/v1/sandboxes',
  '/api/v1/sandbox-specs',
  '/api/v1/conversation',
  '/api/v1/conversations',
  '/api/v1/settings',
  '/api/v1/secrets',
  '/api/v1/git',
  '/api/v1/users/git-info',
  '/api/v1/web-client/config',
  '/api/v1/config',
  '/api/v1/skills/search',
] as const);

/** Paths of the agent server whose provider operations the fake's agent host must serve. */
export const AGENT_DRIFT_PREFIXES = Object.freeze([
  '/alive',
  '/health',
  '/ready',
  '/server_info',
  '/api/conversations/{conversation_id}/events',
  '/api/conversations/{conversation_id}/pause',
  '/api/conversations/{conversation_id}/run',
  '/api/conversations/{conversation_id}/confirmation_policy',
  '/api/git/changes',
  '/api/git/diff',
  '/api/file/upload',
  '/api/file/download',
  '/api/vscode',
  '/api/conversations/search',
  '/api/conversations/count',
] as const);

/** Options of `checkDrift`. */
export interface DriftOptions {
  /** The provider's OpenAPI documents: paths, http(s) URLs, or parsed documents (several are merged: e.g. V1 and legacy). */
  specs: readonly (string | object)[];
  /** Compare the document a running fakehands serves at this base URL instead of the built-in one. */
  baseUrl?: string;
  /** Prefixes whose provider operations the fake must serve (default `DRIFT_PREFIXES`). */
  prefixes?: readonly string[];
  /** Declared differences (default: fakehands' own `KNOWN_DIFFERENCES`). */
  known?: readonly KnownDifference[];
  /** Your own declared differences, besides `known` (what `--known FILE` reads: see `readKnownDifferences`). */
  extraKnown?: readonly KnownDifference[];
  /** Compare the agent server the fake serves behind `conversation_url` (its own document) instead of the app server. */
  agent?: boolean;
}

/**
 * Which part of the app server's API a path belongs to: V1 (`/api/v1/...`), one family of the other
 * `/api/...` routes by its first segment (`/api/conversations/...`, `/api/organizations/...`), or the
 * server's own (`/alive`, `/health`); a document covers the parts its paths are in. By family: the
 * published V1 document carries OpenHands Cloud's `/api/organizations`, `/api/shared-...`, which
 * says nothing of the legacy `/api/conversations`, `/api/settings` the V0 document holds.
 */
const generationOf = (path: string) =>
  path === '/api/v1' || path.startsWith('/api/v1/') ? 'v1' : path.startsWith('/api/') ? `api:${path.split('/')[2]}` : 'root';
/** The agent server's parts: its one document covers all of `/api/...` (a route it lacks is one the fake serves beyond it). */
const agentGenerationOf = (path: string) => (path.startsWith('/api/') ? 'api' : 'root');

const underAny = (prefixes: readonly string[]) => (path: string) => prefixes.some((p) => path === p || path.startsWith(`${p}/`));

/** The fake's own OpenAPI document, as `GET /openapi.json` serves it (with `agent`, its agent server's). */
export function fakeDocument({ agent = false }: { agent?: boolean } = {}): object {
  return openApiDocument(agent ? agentRoutes : apiRoutes, { version: '0.0.0', serverUrl: '/' });
}

/**
 * The operation facts of the fake's own documents, worked out once per process and only read
 * after: the routes never change while a process runs, and working them out (building the document
 * from the schemas, then its facts) was about half of a check's CPU (issue 34).
 */
const ownFacts = new Map<boolean, Map<string, OperationFacts>>();
function fakeFacts(agent: boolean): Map<string, OperationFacts> {
  let facts = ownFacts.get(agent);
  if (!facts) ownFacts.set(agent, (facts = operationFacts(fakeDocument({ agent }))));
  return facts;
}

/** `operationFacts`, whose `invalid_spec` error names the file or URL the document came from. */
function factsNamingSource(document: unknown, source: string, include?: (path: string) => boolean): Map<string, OperationFacts> {
  try {
    return operationFacts(document, include);
  } catch (error) {
    if (error instanceof FakehandsError && error.code === 'invalid_spec')
      throw new FakehandsError('invalid_spec', `${source}: ${error.message}`);
    throw error;
  }
}

/**
 * Compares the fake with a provider's OpenAPI documents; throws an `invalid_spec` error for a
 * document that cannot be read or is not OpenAPI 3.x.
 * @example
 * const report = await checkDrift({ specs: ['real-openapi.json'] })
 * if (report.differences.length > 0) console.log(formatReport(report).join('\n'))
 */
export async function checkDrift(options: DriftOptions): Promise<DriftReport> {
  const prefixes = options.prefixes ?? (options.agent ? AGENT_DRIFT_PREFIXES : DRIFT_PREFIXES);
  const fake =
    options.baseUrl && !options.agent
      ? factsNamingSource(
          await loadDocument(`${options.baseUrl.replace(/\/+$/, '')}/openapi.json`),
          `${options.baseUrl.replace(/\/+$/, '')}/openapi.json`,
        )
      : fakeFacts(options.agent ?? false);
  const served = [...fake.values()].map((op) => op.name.split(' ')[1]!);
  const inScope = underAny(prefixes);
  const relevant = (path: string) =>
    inScope(path) || served.some((s) => s.replace(/\{[^}]*\}/g, '{}') === path.replace(/\{[^}]*\}/g, '{}'));
  const provider = new Map<string, OperationFacts>();
  const generations = new Set<string>();
  const partOf = options.agent ? agentGenerationOf : generationOf;
  for (const spec of options.specs) {
    const document = typeof spec === 'string' ? await loadDocument(spec) : spec;
    for (const path of Object.keys((document as { paths?: object }).paths ?? {})) generations.add(partOf(path));
    for (const [key, operation] of factsNamingSource(
      document,
      typeof spec === 'string' ? spec : `specs[${options.specs.indexOf(spec)}]`,
      relevant,
    ))
      provider.set(key, operation);
  }
  const covered = (path: string) => generations.has(partOf(path));
  // The agent host's routes the documents lack, declared from its route table (`newestAgentRoutes`).
  const lacking = [...fake].filter(([key, op]) => !provider.has(key) && covered(op.name.split(' ')[1]!)).map(([, op]) => op.name);
  const builtIn = options.agent ? [...KNOWN_AGENT_DIFFERENCES, ...newestAgentRoutes(lacking)] : KNOWN_DIFFERENCES;
  const known = [...(options.known ?? builtIn), ...(options.extraKnown ?? [])];
  return compareOperations(provider, fake, inScope, known, covered, new Set(builtIn));
}
