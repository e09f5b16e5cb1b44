/**
 * The control API under `/_fakehands/`: health, reset, state, clock, faults and the request
 * journal, for scripts and UI tests that drive the dev server. Same auth as the API.
 */
import { z } from 'zod';
import type { FakeCore as Fake } from '../fake.js';
import { SESSION_API_KEY_HEADER, keyMatches } from '../http/auth.js';
import { FaultSpec } from '../http/faults.js';
import { detail, json, methodNotAllowed, notFound, unauthorized, unprocessable, type Answer, type RequestLike } from '../http/responses.js';
import { toValidationErrors } from '../http/validation.js';

/** Path prefix of the control API. */
export const CONTROL_PREFIX = '/_fakehands';

const ResetBody = z.strictObject({ fixture: z.string().min(1).optional(), seed: z.int().optional() });
const ClockBody = z.strictObject({ advance_ms: z.int().min(0).max(365 * 24 * 3600 * 1000) });
const JournalQuery = z.object({ limit: z.preprocess((v) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v), z.int().gt(0).lte(100_000)).optional() });

async function readJson(request: RequestLike): Promise<{ ok: true; value: unknown } | { ok: false; response: Answer }> {
  const text = await request.text();
  if (text.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, response: unprocessable([{ type: 'json_invalid', loc: ['body', 0], msg: 'JSON decode error', input: {}, ctx: { error: 'Expecting value' } }]) };
  }
}

function validate<T extends z.ZodType>(schema: T, value: unknown, location: 'body' | 'query'): { ok: true; data: z.output<T> } | { ok: false; response: Answer } {
  const result = schema.safeParse(value, { reportInput: true });
  return result.success ? { ok: true, data: result.data } : { ok: false, response: unprocessable(toValidationErrors(result.error.issues, value, location)) };
}

/** Called after the control API changed state (the state file is written here). */
export type ControlChange = () => Promise<void>;

/** Answers a control API request at `path` (starting with `/_fakehands`). */
export async function handleControl(fake: Fake, request: RequestLike, path: string, changed: ControlChange): Promise<Answer> {
  const method = request.method.toUpperCase();
  const action = path.slice(CONTROL_PREFIX.length);
  if (action === '/health') return method === 'GET' ? json(200, { status: 'ok' }) : methodNotAllowed(['GET']);
  if (fake.options.auth !== 'none' && !keyMatches(fake.options.apiKey, request.headers.get(SESSION_API_KEY_HEADER))) return unauthorized();

  switch (action) {
    case '/reset': {
      if (method !== 'POST') return methodNotAllowed(['POST']);
      const body = await readJson(request);
      if (!body.ok) return body.response;
      const parsed = validate(ResetBody, body.value, 'body');
      if (!parsed.ok) return parsed.response;
      try {
        await fake.reset(parsed.data);
      } catch (error) {
        return detail(422, (error as Error).message);
      }
      fake.faults.clear();
      await changed();
      return json(200, { status: 'ok' });
    }
    case '/state':
      return method === 'GET' ? json(200, await fake.snapshot()) : methodNotAllowed(['GET']);
    case '/clock': {
      if (method === 'GET') return json(200, { now: new Date(fake.clock.now()).toISOString() });
      if (method !== 'POST') return methodNotAllowed(['GET']);
      const body = await readJson(request);
      if (!body.ok) return body.response;
      const parsed = validate(ClockBody, body.value, 'body');
      if (!parsed.ok) return parsed.response;
      fake.clock.advance(parsed.data.advance_ms);
      await changed();
      return json(200, { now: new Date(fake.clock.now()).toISOString() });
    }
    case '/faults': {
      if (method === 'GET') return json(200, { faults: fake.faults.list() });
      if (method === 'DELETE') {
        const cleared = fake.faults.list().length;
        fake.faults.clear();
        return json(200, { cleared });
      }
      if (method !== 'POST') return methodNotAllowed(['GET']);
      const body = await readJson(request);
      if (!body.ok) return body.response;
      const parsed = validate(FaultSpec, body.value, 'body');
      if (!parsed.ok) return parsed.response;
      return json(200, fake.faults.add(parsed.data));
    }
    case '/requests': {
      if (method === 'DELETE') {
        fake.journal.clear();
        return json(200, { cleared: true });
      }
      if (method !== 'GET') return methodNotAllowed(['GET']);
      const url = new URL(request.url);
      const query = Object.fromEntries(url.searchParams);
      const parsed = validate(JournalQuery, query, 'query');
      if (!parsed.ok) return parsed.response;
      return json(200, { requests: fake.journal.entries(parsed.data.limit) });
    }
    default:
      return notFound();
  }
}
