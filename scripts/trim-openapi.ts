/**
 * Writes the trimmed snapshots of the real service's published OpenAPI documents that CI holds
 * the fake against (`test/drift/`): only the operations fakehands compares (the V1 prefixes and
 * the legacy routes it serves) and the schemas they reference; no prose (descriptions, titles,
 * summaries, examples). `npm run drift:snapshot -- V1.json V0.json AGENT.json` after the real documents change.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { AGENT_DRIFT_PREFIXES, DRIFT_PREFIXES, fakeDocument } from '../src/drift/index.js';

type Json = Record<string, unknown>;

/** Every path fakehands' app server serves, compared too (its legacy routes, health, options, settings, user and git). */
const LEGACY_PATHS = Object.keys((fakeDocument() as { paths: Record<string, unknown> }).paths);
/** Schema keywords that hold prose only. */
const PROSE = new Set(['description', 'summary', 'title', 'examples', 'example', 'externalDocs']);
/** Keys whose values are maps of names (not keywords). */
const NAME_MAPS = new Set(['properties', 'patternProperties', 'schemas', 'paths', 'responses', 'content', '$defs', 'definitions']);

function strip(value: unknown, namesHere = false): unknown {
  if (Array.isArray(value)) return value.map((v) => strip(v));
  if (value === null || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [key, item] of Object.entries(value)) {
    if (!namesHere && PROSE.has(key)) continue;
    out[key] = strip(item, !namesHere && NAME_MAPS.has(key));
  }
  return out;
}

function refsIn(value: unknown, found: Set<string>): void {
  if (Array.isArray(value)) return value.forEach((v) => refsIn(v, found));
  if (value === null || typeof value !== 'object') return;
  for (const [key, item] of Object.entries(value)) {
    if (key === '$ref' && typeof item === 'string') found.add(item);
    else refsIn(item, found);
  }
}

async function trim(source: string, target: string, prefixes: readonly string[] = DRIFT_PREFIXES, legacy = LEGACY_PATHS): Promise<void> {
  const document = JSON.parse(await readFile(source, 'utf8')) as Json;
  const keep = (path: string) => legacy.includes(path) || prefixes.some((p) => path === p || path.startsWith(`${p}/`));
  const paths = Object.fromEntries(Object.entries(document.paths as Json).filter(([path]) => keep(path)));
  const schemas = (document.components as { schemas: Json }).schemas;
  const wanted = new Set<string>();
  const queue = new Set<string>();
  refsIn(paths, queue);
  while (queue.size > 0) {
    const [ref] = queue;
    queue.delete(ref!);
    const name = ref!.replace('#/components/schemas/', '');
    if (wanted.has(name)) continue;
    wanted.add(name);
    refsIn(schemas[name], queue);
  }
  const trimmed = {
    openapi: document.openapi,
    info: { title: `trimmed snapshot of ${source.split('/').at(-1)}`, version: (document.info as Json).version },
    paths: strip(paths, true),
    components: { schemas: strip(Object.fromEntries([...wanted].sort().map((name) => [name, schemas[name]])), true) },
  };
  await writeFile(target, `${JSON.stringify(trimmed, null, 1)}\n`);
  console.log(`wrote ${target}: ${Object.keys(paths).length} paths, ${wanted.size} schemas`);
}

const [
  v1 = '../shared/reference/openapi/app-server.openapi.json',
  v0 = '../shared/reference/openapi/app-server-v0.openapi.json',
  agent = '../shared/reference/openapi/agent-server.openapi.json',
] = process.argv.slice(2);
await trim(v1, 'test/drift/real-app-server.openapi.json');
await trim(v0, 'test/drift/real-app-server-v0.openapi.json');
/** Every path the fake's agent server serves: each one the published document has is compared (a route left out of the snapshot was never checked in CI). */
const AGENT_PATHS = Object.keys((fakeDocument({ agent: true }) as { paths: Record<string, unknown> }).paths);
await trim(agent, 'test/drift/real-agent-server.openapi.json', AGENT_DRIFT_PREFIXES, AGENT_PATHS);
