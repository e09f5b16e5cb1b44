/**
 * A large JSON body is parsed in one turn of the event loop and validated and handled in a later
 * one (`parse.ts`, `LARGE_BODY_CHARS`), so a 1 MB command never holds the loop for its whole work;
 * the JSON shape scan skips a string's characters at once and still finds where each string ends.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { LARGE_BODY_CHARS, parseRequest } from '../../src/http/parse.js';
import { scanJsonShape } from '../../src/http/json-shape.js';
import { defineRoute } from '../../src/http/route.js';
import { agentServerSurface } from '../../src/surfaces/agent-server/index.js';

const route = defineRoute({
  method: 'POST',
  path: '/api/bash/execute_bash_command',
  summary: 'a command',
  body: z.object({ command: z.string() }),
  response: z.object({}),
  handle: async () => ({}),
});

/** Parses `text` as the route's body; whether a callback queued with setImmediate just before had run by the time it resolved. */
async function parsedAfterATurn(text: string) {
  const url = new URL('http://agent.test/api/bash/execute_bash_command');
  const request = { method: 'POST', url: url.href, headers: new Headers({ 'content-type': 'application/json' }), text: async () => text };
  let turned = false;
  setImmediate(() => {
    turned = true;
  });
  const parsed = await parseRequest(route, request as never, url, {}, agentServerSurface.parseHelpers);
  return { parsed, turned };
}

describe('parseRequest: a large JSON body', () => {
  it('answers the parsed body in a later turn of the event loop than the one that read it', async () => {
    const command = `echo ${'x'.repeat(LARGE_BODY_CHARS)}`;
    const { parsed, turned } = await parsedAfterATurn(JSON.stringify({ command }));
    expect(parsed).toEqual({ ok: true, query: undefined, body: { command } });
    expect(turned).toBe(true);
  });

  it('answers a small body in the same turn', async () => {
    const { parsed, turned } = await parsedAfterATurn('{"command":"echo hi"}');
    expect(parsed).toEqual({ ok: true, query: undefined, body: { command: 'echo hi' } });
    expect(turned).toBe(false);
  });
});

describe('scanJsonShape', () => {
  /** The scan a character at a time, as it was written first. */
  function reference(text: string, depthLimit: number, valueLimit: number) {
    let depth = 0;
    let values = 1;
    let inString = false;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (inString) {
        if (c === 0x5c) i++;
        else if (c === 0x22) inString = false;
      } else if (c === 0x22) inString = true;
      else if (c === 0x5b || c === 0x7b) {
        if (++depth > depthLimit) return { kind: 'too_deep', at: Array.from(text.slice(0, i)).length };
        if (++values > valueLimit) return { kind: 'too_many_values' };
      } else if (c === 0x5d || c === 0x7d) depth--;
      else if (c === 0x2c && ++values > valueLimit) return { kind: 'too_many_values' };
    }
    return { kind: 'ok' };
  }

  it('finds the end of every string as a scan a character at a time does (escaped quotes, runs of backslashes, brackets inside)', () => {
    const strings = ['', 'a', '\\"', '\\\\', '\\\\\\"[', '{[,', 'x\\\\"', '\\u0022', '"', 'é ü 🙂'];
    const texts: string[] = [];
    for (const a of strings)
      for (const b of strings) {
        texts.push(`["${a}",[["${b}"]],{"${a}":[1,2,{"k":"${b}"}]}]`);
        texts.push(`{"${a}${b}":[[[[["${b}"]]]]],"n":[${'1,'.repeat(5)}2]}`);
        texts.push(`["${a}`);
      }
    for (const text of texts)
      for (const [depth, values] of [
        [3, 1000],
        [512, 6],
        [1, 1],
      ] as const)
        expect([text, scanJsonShape(text, depth, values)]).toEqual([text, reference(text, depth, values)]);
  });
});
