/**
 * `fakehands record --compare`: each exchange the real server answered is asked, in the
 * background, of an in-process fake too (the agent host or the app server, as the target is one or
 * the other), and the two answers are compared as the differential suite compares them
 * (`real/compare.ts`: the status, then the body's shape; `real/declared.ts`: the declared
 * differences with their reasons). Ids the real server handed out are followed: an id the fake
 * answered in the same place stands for it in later requests. Each difference is one line on
 * stdout and one JSON line in `differences.jsonl`; nothing of it holds a secret.
 */
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createFakeCore } from '../fake.js';
import { bodyFacts, statusFact, type Fact } from '../real/compare.js';
import { declaredFor } from '../real/declared.js';
import type { Answerer, ExchangeCheck } from './recorder.js';
import type { ProxiedExchange } from './proxy.js';
import type { Scrubber } from './scrub.js';

/** Which server the target is. */
export type ServerKind = 'agent' | 'app';

/** The fake's origins in process (nothing listens there). */
const APP_ORIGIN = 'http://app.fakehands.invalid';
const AGENT_ORIGIN = 'http://agent.fakehands.invalid';
/** The file the differences are written to, in the recording's folder. */
export const DIFFERENCES_FILE = 'differences.jsonl';

const ID = /^(?:[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}|[0-9a-f]{24,64}|oh-[\w-]{8,})$/i;

/** Which server `target` is: its `/server_info` names an agent server's tools, an app server's machine; `null` when it does not answer. */
export async function serverKind(target: URL): Promise<ServerKind | null> {
  try {
    const answer = await fetch(new URL('/server_info', target), { signal: AbortSignal.timeout(5000) });
    const body = (await answer.json().catch(() => null)) as Record<string, unknown> | null;
    return body && ('usable_tools' in body || 'conversation_runtime' in body) ? 'agent' : 'app';
  } catch {
    return null;
  }
}

/** A path with its ids as `{id}` (the step's name in a fact). */
const stepPath = (path: string) =>
  path
    .split('?')[0]!
    .split('/')
    .map((segment) => (ID.test(segment) ? '{id}' : segment))
    .join('/');

/** A body's JSON, or its text. */
function parsed(bytes: Buffer | null): unknown {
  if (bytes === null || bytes.length === 0) return null;
  const text = bytes.toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * The `--compare` check of a recorder: an in-process fake (empty, instant, no key checked, the
 * given agent scripts), and what is written where.
 * @example
 * const compare = await liveCompare({ target, kind: 'agent', agentScripts: [], out: 'rec', print: console.log })
 */
export async function liveCompare(options: {
  kind: ServerKind | null;
  agentScripts: unknown[];
  out: string;
  print(line: string): void;
}): Promise<(scrubber: Scrubber) => ExchangeCheck> {
  const fake = await createFakeCore({
    fixture: 'empty',
    timings: 'instant',
    auth: 'none',
    baseUrl: APP_ORIGIN,
    agentUrl: AGENT_ORIGIN,
    agentScripts: options.agentScripts as never,
  });
  const file = join(options.out, DIFFERENCES_FILE);
  return (scrubber) => {
    /** Real ids and the fake's in the same places. */
    const ids = new Map<string, string>();
    let chain: Promise<void> = Promise.resolve();
    let total = 0;
    let agree = 0;
    let declared = 0;

    const follow = (text: string) => {
      let out = text;
      for (const [real, fake] of ids) if (out.includes(real)) out = out.replaceAll(real, fake);
      return out;
    };
    /** Notes the ids the fake answered where the real server answered others (`id`, `*_id` fields, pairwise). */
    const learn = (real: unknown, fake: unknown, key: string, depth = 0): void => {
      if (depth > 32 || ids.size > 10_000) return;
      if (typeof real === 'string' && typeof fake === 'string') {
        if (real !== fake && (key === 'id' || key.endsWith('_id')) && ID.test(real) && ID.test(fake)) {
          ids.set(real, fake);
          const [r, f] = [real.replace(/-/g, ''), fake.replace(/-/g, '')];
          if (r.length === 32 && f.length === 32) {
            ids.set(r, f);
            const dashed = (hex: string) =>
              `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
            ids.set(dashed(r), dashed(f));
          }
        }
        return;
      }
      if (Array.isArray(real) && Array.isArray(fake)) {
        for (let i = 0; i < Math.min(real.length, fake.length, 1000); i++) learn(real[i], fake[i], key, depth + 1);
        return;
      }
      if (real && fake && typeof real === 'object' && typeof fake === 'object')
        for (const k of Object.keys(real)) learn((real as Record<string, unknown>)[k], (fake as Record<string, unknown>)[k], k, depth + 1);
    };

    const check = async (x: ProxiedExchange, answerer: Answerer) => {
      const path = x.path.split('?')[0]!;
      // A server the target handed out is a sandbox's agent server.
      const kind = answerer === 'handed-out' ? 'agent' : (options.kind ?? (path.startsWith('/api/v1/') ? 'app' : 'agent'));
      const body = x.requestBody && x.requestBody.length > 0 ? follow(x.requestBody.toString('utf8')) : undefined;
      const type = x.requestHeaders.find(([n]) => n.toLowerCase() === 'content-type')?.[1];
      const answer = await fake.fetch(
        new Request(`${kind === 'agent' ? AGENT_ORIGIN : APP_ORIGIN}${follow(x.path)}`, {
          method: x.method,
          headers: type ? { 'content-type': type } : {},
          ...(body !== undefined && x.method !== 'GET' && x.method !== 'HEAD' ? { body } : {}),
        }),
      );
      const fakeBody = parsed(Buffer.from(await answer.arrayBuffer()));
      const realBody = parsed(x.responseBody);
      learn(realBody, fakeBody, '');
      const step = `${kind} server › ${x.method} ${stepPath(path)}`;
      const status = statusFact(step, x.status, answer.status);
      const facts: Fact[] = status.agree ? [status, ...bodyFacts(`${step} › body`, realBody, fakeBody)] : [status];
      const lines: string[] = [];
      for (const fact of facts) {
        total++;
        if (fact.agree) {
          agree++;
          continue;
        }
        const reason = declaredFor(fact)?.reason ?? null;
        if (reason) declared++;
        const shown = scrubber.deep({ id: fact.id, real: fact.real, fake: fact.fake, agree: false, declared: reason });
        options.print(`difference: ${shown.id}: real ${shown.real}, fake ${shown.fake}${reason ? ` (declared: ${reason})` : ''}`);
        lines.push(`${JSON.stringify(shown)}\n`);
      }
      if (lines.length > 0) await appendFile(file, lines.join(''));
    };

    return {
      check(x, answerer) {
        chain = chain.then(() => check(x, answerer)).catch((error: unknown) => options.print(`compare: ${(error as Error).message}`));
      },
      async close() {
        await chain;
        const differences = total - agree;
        return `compare: ${agree}/${total} facts agree, ${differences} difference(s) (${declared} declared) in ${file}`;
      },
    };
  };
}
