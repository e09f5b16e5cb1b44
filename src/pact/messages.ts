/**
 * `fakehands verify --messages`: checks the Pact V4 message contracts of the events socket
 * (contracts/messages/) against any agent server reached through an app server at `--base-url`.
 * It starts a conversation whose first message runs the agent, opens
 * `/sockets/events/{id}?resend_mode=all` with the sandbox's own session key, sends a frame that is
 * not JSON (the server answers a `ServerErrorEvent`), collects frames for a bounded time and
 * matches each interaction: a frame of its kind (and its tool's action or observation kind), every
 * field its matching rules name present and of the rule's type or pattern. Hand-written: Pact's
 * message verifier calls producer functions in-process, it cannot read a provider's socket.
 */
import { readFile, readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { FakehandsError } from '../domain/store/errors.js';
import { packageFile } from '../package-root.js';

/** Where the message contracts are shipped. */
export const MESSAGE_CONTRACTS_DIR = fileURLToPath(packageFile('contracts/messages/'));
/** How long verify waits for the frames, at most. */
export const MESSAGE_VERIFY_TIMEOUT_MS = 30_000;

type Json = Record<string, unknown>;
interface MessageInteraction {
  type: string;
  description: string;
  providerStates?: { name: string }[];
  contents: { content: Json };
  matchingRules?: { body?: Record<string, { matchers: { match: string; regex?: string }[] }> };
}

/** The value at `path` (`a.b`) of `value`. */
const at = (value: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((v, key) => (v !== null && typeof v === 'object' ? (v as Json)[key] : undefined), value);
const jsonType = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/** Why `frame` does not satisfy `interaction`, as the first field that fails; null when it does. */
export function mismatch(interaction: MessageInteraction, frame: unknown): { field: string; reason: string; rank: number } | null {
  const example = interaction.contents.content;
  const fixed = ['kind', 'action.kind', 'observation.kind', 'llm_message.role', 'key'];
  for (const [rank, field] of fixed.entries()) {
    const wanted = at(example, field);
    if (wanted !== undefined && at(frame, field) !== wanted)
      return { field, reason: `expected ${JSON.stringify(wanted)}, got ${JSON.stringify(at(frame, field))}`, rank };
  }
  let rank = fixed.length;
  for (const [rulePath, { matchers }] of Object.entries(interaction.matchingRules?.body ?? {})) {
    rank++;
    // `$.a.b[*].c`: the first item of each list stands for all (`a.b.0.c`).
    const field = rulePath.replace(/^\$\.?/, '').replace(/\[\*\]|\[\d+\]/g, '.0');
    if (!field || field.includes('*')) continue;
    const value = at(frame, field);
    if (value === undefined) return { field, reason: 'missing', rank };
    for (const matcher of matchers) {
      if (matcher.match === 'type' && jsonType(value) !== jsonType(at(example, field)))
        return { field, reason: `expected a ${jsonType(at(example, field))}, got ${jsonType(value)}`, rank };
      if (matcher.match === 'regex' && !new RegExp(matcher.regex ?? '').test(String(value)))
        return { field, reason: `${JSON.stringify(value)} does not match /${matcher.regex}/`, rank };
    }
  }
  return null;
}

/** The outcome of one verification. */
export interface MessageVerifyResult {
  ok: boolean;
  passed: number;
  failed: { description: string; field: string; reason: string }[];
}

/** Starts a conversation with a first message on the app server at `baseUrl`; its agent host, id and session key. */
async function startConversation(
  baseUrl: string,
  apiKey: string,
  deadline: number,
): Promise<{ agentUrl: string; id: string; key: string }> {
  const headers = { 'content-type': 'application/json', 'x-session-api-key': apiKey };
  const base = baseUrl.replace(/\/+$/, '');
  const task = (await (
    await fetch(`${base}/api/v1/app-conversations`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ initial_message: { role: 'user', content: [{ type: 'text', text: 'Fix the flaky test' }] } }),
    })
  ).json()) as { id: string };
  while (Date.now() < deadline) {
    const [current] = (await (await fetch(`${base}/api/v1/app-conversations/start-tasks?ids=${task.id}`, { headers })).json()) as {
      status: string;
      app_conversation_id: string;
    }[];
    if (current?.status === 'READY') {
      const [conversation] = (await (
        await fetch(`${base}/api/v1/app-conversations?ids=${current.app_conversation_id}`, { headers })
      ).json()) as { id: string; session_api_key: string; conversation_url: string }[];
      return {
        agentUrl: conversation!.conversation_url.replace(/\/api\/conversations\/.*$/, ''),
        id: conversation!.id,
        key: conversation!.session_api_key,
      };
    }
    if (current?.status === 'ERROR') throw new FakehandsError('unreachable', 'the provider could not start a conversation');
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new FakehandsError('unreachable', 'the provider did not start a conversation in time');
}

/** Verifies the message interactions of `files` against the provider; reports one line each and the counts last. */
export async function verifyMessages(options: {
  baseUrl: string;
  apiKey: string;
  files: string[];
  report: (line: string) => void;
  timeoutMs?: number;
}): Promise<MessageVerifyResult> {
  const interactions: MessageInteraction[] = [];
  for (const file of options.files)
    interactions.push(
      ...(JSON.parse(await readFile(file, 'utf8')) as { interactions: MessageInteraction[] }).interactions.filter(
        (i) => i.type === 'Asynchronous/Messages' && (i.providerStates?.length ?? 0) > 0,
      ),
    );
  // Interactions without a provider state are the frames the client sends: the provider receives them, they are not verified here.
  const deadline = Date.now() + (options.timeoutMs ?? MESSAGE_VERIFY_TIMEOUT_MS);
  const { agentUrl, id, key } = await startConversation(options.baseUrl, options.apiKey, deadline);
  const frames: unknown[] = [];
  const pending = new Set(interactions);
  const ws = new WebSocket(
    `${agentUrl.replace(/^http/, 'ws')}/sockets/events/${id}?resend_mode=all&session_api_key=${encodeURIComponent(key)}`,
  );
  ws.on('error', () => undefined);
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
    ws.on('message', (data) => {
      // Once subscribed (the state has come), a frame that is not JSON: the server answers a ServerErrorEvent.
      if (frames.length === 0) ws.send('{not json');
      try {
        frames.push(JSON.parse(String(data)));
      } catch {
        return;
      }
      for (const interaction of pending) if (mismatch(interaction, frames.at(-1)) === null) pending.delete(interaction);
      if (pending.size === 0) {
        clearTimeout(timer);
        resolve();
      }
    });
    ws.on('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  ws.close();
  const failed: MessageVerifyResult['failed'] = [];
  for (const interaction of interactions) {
    if (!pending.has(interaction)) {
      options.report(`  ok: ${interaction.description}`);
      continue;
    }
    // The nearest frame: the one that fails latest in the check order (same kind before same tool).
    const reasons = frames
      .map((frame) => mismatch(interaction, frame)!)
      .filter(Boolean)
      .sort((a, b) => b.rank - a.rank);
    const best = reasons[0] ?? { field: 'kind', reason: 'no frame arrived' };
    failed.push({ description: interaction.description, field: best.field, reason: best.reason });
    options.report(`  FAILED: ${interaction.description}: field ${best.field}: ${best.reason}`);
  }
  options.report(`fakehands verify --messages: ${options.baseUrl}`);
  options.report(
    `  interactions: ${interactions.length}; passed: ${interactions.length - failed.length}; failed: ${failed.length}; frames received: ${frames.length}`,
  );
  return { ok: failed.length === 0, passed: interactions.length - failed.length, failed };
}

/** Runs `fakehands verify --messages --base-url URL [--api-key KEY] [--pact FILE ...]`; resolves with the exit code. */
export async function runMessageVerify(
  config: { baseUrl: string; apiKey?: string; pactFiles?: string[] },
  write: (text: string) => void,
): Promise<number> {
  const files =
    config.pactFiles ??
    (await readdir(MESSAGE_CONTRACTS_DIR))
      .filter((f) => f.endsWith('.json') && !f.includes('-1.1.0'))
      .sort()
      .map((f) => `${MESSAGE_CONTRACTS_DIR}${f}`);
  const result = await verifyMessages({
    baseUrl: config.baseUrl,
    apiKey: config.apiKey ?? '',
    files,
    report: (line) => write(`${line}\n`),
  });
  return result.ok ? 0 : 1;
}
