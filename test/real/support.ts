/**
 * The differential suite's support: the two targets of each scenario (a real server and the fake
 * in its place), one request helper both answer through, and the comparison of their answers into
 * facts (`src/real/compare.ts`), each undeclared difference failing its test. Every file writes its
 * facts to `.tmp/real-facts/FILE.json`, which `scripts/test-real.mjs` sums into the `real:` line.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { bodyFacts, eventSequenceFacts, type Fact, statusFact } from '../../src/real/compare.js';

export { eventName } from '../../src/real/compare.js';
import { declaredFor } from '../../src/real/declared.js';

/** One side of a comparison: where it listens and the key it takes. */
export interface Target {
  readonly side: 'real' | 'fake';
  readonly url: string;
  readonly key: string;
}

/** An answer, its body parsed when it is JSON. */
export interface Answered {
  status: number;
  body: unknown;
}

/** A request to a target, with its key unless `key` says otherwise (`null`: none). */
export async function call(
  target: Target,
  method: string,
  path: string,
  body?: unknown,
  options: { key?: string | null; raw?: string } = {},
): Promise<Answered> {
  const key = options.key === undefined ? target.key : options.key;
  const headers: Record<string, string> = {};
  if (key !== null) headers['X-Session-API-Key'] = key;
  if (body !== undefined || options.raw !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${target.url}${path}`, {
    method,
    headers,
    body: options.raw ?? (body === undefined ? undefined : JSON.stringify(body)),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text === '' ? null : JSON.parse(text);
  } catch {
    // Not JSON: compared as a string.
  }
  return { status: response.status, body: parsed };
}

/** A fact with what decided it: agreeing, declared (with the reason), or a difference. */
export interface JudgedFact extends Fact {
  readonly declared: string | null;
}

/** The facts of a file, kept for its report. */
const judged: JudgedFact[] = [];

/** Which server a file compares (`agent server`, `app server`): the first part of each of its facts' ids. */
let scope = '';

/** Names the server this file compares: its facts are `SERVER › step › path`. */
export function compareServer(name: 'agent server' | 'app server'): void {
  scope = name;
}

/** Judges facts: each disagreement a declared difference names is declared. */
function judge(facts: readonly Fact[]): JudgedFact[] {
  const out = facts.map((raw) => {
    const fact = { ...raw, id: `${scope} › ${raw.id}` };
    return { ...fact, declared: fact.agree ? null : (declaredFor(fact)?.reason ?? null) };
  });
  judged.push(...out);
  return out;
}

/** The differences nothing declares, one line each (what a test asserts is empty). */
const undeclared = (facts: readonly JudgedFact[]) =>
  facts.filter((f) => !f.agree && f.declared === null).map((f) => `${f.id}: real ${f.real}, fake ${f.fake}`);

/**
 * Compares two answers to one step: the status, and when the statuses agree the body's shape (a
 * 201 beside a 422 is one difference, not one per key of either body); returns the undeclared differences.
 */
export function compareAnswers(step: string, real: Answered, fake: Answered): string[] {
  const status = statusFact(step, real.status, fake.status);
  return undeclared(judge(status.agree ? [status, ...bodyFacts(`${step} › body`, real.body, fake.body)] : [status]));
}

/** What a client call came to: `ok` with its result, or `HTTP <status>` with the error's body, or `throws`. */
export interface CallOutcome {
  readonly outcome: string;
  readonly value: unknown;
}

/**
 * Compares two outcomes of one client call: the outcome, and when they agree the shape of what
 * each answered (`body`: its result, or its error's body); returns the undeclared differences.
 */
export function compareOutcomes(step: string, real: CallOutcome, fake: CallOutcome): string[] {
  const outcome = { id: `${step} › outcome`, real: real.outcome, fake: fake.outcome, agree: real.outcome === fake.outcome };
  return undeclared(judge(outcome.agree ? [outcome, ...bodyFacts(`${step} › body`, real.value, fake.value)] : [outcome]));
}

/**
 * Compares two sequences (of event names): without the statistics updates, position by position,
 * and whether each side published any (`eventSequenceFacts`); returns the undeclared differences.
 */
export function compareSequences(step: string, real: readonly string[], fake: readonly string[]): string[] {
  return undeclared(judge(eventSequenceFacts(step, real, fake)));
}

/** Compares one value each side read (a status after a step); returns the undeclared differences. */
export function compareValues(step: string, real: unknown, fake: unknown): string[] {
  const r = JSON.stringify(real);
  const f = JSON.stringify(fake);
  return undeclared(judge([{ id: step, real: r, fake: f, agree: r === f }]));
}

/** Writes this file's facts for the summary line (`.tmp/real-facts/NAME.json`). */
export function writeFacts(file: string, versions: Record<string, string>): void {
  const dir = join(process.cwd(), '.tmp', 'real-facts');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${basename(file).replace(/\.ts$/, '')}.json`), `${JSON.stringify({ versions, facts: judged }, null, 1)}\n`);
}

/** A wait. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `read` until `done` holds of its value, or `timeoutMs` passes (then the last value). */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await sleep(250);
  }
}
