/**
 * `fakehands record --compare`: each exchange the real server answered is asked, in the
 * background, of an in-process fake too (the agent host or the app server, as the target is one or
 * the other), and the two answers are compared as the differential suite compares them
 * (`real/compare.ts`: the status, then the body's shape; `real/declared.ts`: the declared
 * differences with their reasons). Each event socket is opened on the fake too while the client's
 * is open, the client's frames handed to both, and the events each sent are compared when it ends
 * (`compare-sockets.ts`). Ids the real server handed out are followed: an id the fake
 * answered in the same place stands for it in later requests. Each difference is one line on
 * stdout and one JSON line in `differences.jsonl`; nothing of it holds a secret.
 */
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createFakeCore } from '../fake.js';
import { bodyFacts, eventSequenceFacts, statusFact, type Fact } from '../real/compare.js';
import { frameName, mirrorSocket, type MirroredSocket } from './compare-sockets.js';
import { declaredFor } from '../real/declared.js';
import type { Answerer, ExchangeCheck } from './recorder.js';
import type { ProxiedExchange, ProxiedSocket } from './proxy.js';
import type { Scrubber } from './scrub.js';

/** Which server the target is. */
export type ServerKind = 'agent' | 'app';

/** The fake's origins in process (nothing listens there). */
const APP_ORIGIN = 'http://app.fakehands.invalid';
const AGENT_ORIGIN = 'http://agent.fakehands.invalid';
/** The file the differences are written to, in the recording's folder. */
export const DIFFERENCES_FILE = 'differences.jsonl';

const UUID_OR_HEX = /^(?:[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}|[0-9a-f]{24,64}|oh-[\w-]{8,})$/i;
/** A process sandbox's id: 16 random bytes in base62 (openhands `process_sandbox_service.py`, `base62.encodebytes(os.urandom(16))`). */
const BASE62_ID = /^(?=[^/]*\d)(?=[^/]*[A-Z])(?=[^/]*[a-z])[0-9A-Za-z]{20,22}$/;
/** Whether a value is an id the server made. */
const ID = { test: (text: string) => UUID_OR_HEX.test(text) || BASE62_ID.test(text) };

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
      await report(status.agree ? [status, ...bodyFacts(`${step} › body`, realBody, fakeBody)] : [status]);
    };

    /** Counts facts; prints and writes each difference. */
    const report = async (facts: readonly Fact[]) => {
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

    /** Each event socket open, with the names of the events the real server sent on it and its mirror on the fake. */
    const sockets = new Map<ProxiedSocket, { step: string; real: string[]; mirror: Promise<MirroredSocket> | null }>();
    const later = (work: () => Promise<void>) => {
      chain = chain.then(work).catch((error: unknown) => options.print(`compare: ${(error as Error).message}`));
    };

    return {
      check(x, answerer) {
        later(() => check(x, answerer));
      },
      opened(socket) {
        if (!/^\/sockets\/events\/[^/?]+(?:\?|$)/.test(socket.path)) return;
        const state = {
          step: `agent server › socket ${stepPath(socket.path)} › frames`,
          real: [] as string[],
          mirror: null as Promise<MirroredSocket> | null,
        };
        sockets.set(socket, state);
        // Opened in turn with the exchanges before it, so the fake's socket sees what the real one saw.
        later(async () => {
          state.mirror = mirrorSocket(fake, new URL(`${AGENT_ORIGIN}${follow(socket.path)}`));
          await state.mirror;
        });
      },
      frame(socket, frame) {
        const state = sockets.get(socket);
        if (!state || frame.binary) return;
        const text = frame.data.toString('utf8');
        if (frame.type === 'receive') state.real.push(frameName(text));
        else later(async () => (await state.mirror)?.send(follow(text)));
      },
      ended(socket) {
        const state = sockets.get(socket);
        if (!state) return;
        sockets.delete(socket);
        later(async () => {
          const mirror = await state.mirror;
          await mirror?.close();
          await report(eventSequenceFacts(state.step, state.real, mirror?.names ?? []));
        });
      },
      async close() {
        await chain;
        const differences = total - agree;
        return `compare: ${agree}/${total} facts agree, ${differences} difference(s) (${declared} declared) in ${file}`;
      },
    };
  };
}
