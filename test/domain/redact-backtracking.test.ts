/**
 * Masking secrets in free text (src/domain/store/redact.ts) takes time in proportion to the text,
 * whatever its shape: two shapes backtracked quadratically (a run of "token" words, 1.6 s at
 * 60,000 characters; a run of "a+", 4 s), stalling every request whose answer is masked. Each is
 * measured as a ratio to masking a plain text of the same length in the same run, so a slow machine
 * moves both sides alike.
 */
import { describe, expect, it } from 'vitest';
import { redactSecrets, unmaskedSecrets } from '../../src/domain/store/redact.js';

const LENGTH = 60_000;
/** Most a hostile text may cost, as a multiple of a plain one's (before the fix: over 1,000). */
const MAX_RATIO = 50;

/** The fastest of three maskings of `text`, in milliseconds (at least a tenth of one). */
function cost(text: string): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    redactSecrets(text);
    best = Math.min(best, performance.now() - start);
  }
  return Math.max(best, 0.1);
}

describe('redactSecrets on free text', () => {
  const plain = cost('a'.repeat(LENGTH));
  for (const [name, text] of [
    ['a run of "token" words (a secret header name)', 'token'.repeat(LENGTH / 5)],
    ['a run of "a+" (a URL scheme)', 'a+'.repeat(LENGTH / 2)],
    ['a run of "x-api-key"', 'x-api-key'.repeat(LENGTH / 9)],
    ['a run of "://a:"', '://a:'.repeat(LENGTH / 5)],
    ['a run of "&token"', '&token'.repeat(LENGTH / 6)],
  ] as const) {
    it(`masks ${name} in time linear in its length (under ${MAX_RATIO}× a plain text's)`, () => {
      expect(cost(text) / plain).toBeLessThan(MAX_RATIO);
    });
  }

  it('still masks what it masked: a secret header, a URL password, a secret query parameter, a bearer token', () => {
    expect(redactSecrets('X-Api-Key: sk-123')).toBe('X-Api-Key: **********');
    expect(redactSecrets('see https://user:pa55@example.com/x')).toBe('see https://user:**********@example.com/x');
    expect(redactSecrets('https://mcp.example.com/sse?api_key=sk-1&x=2')).toBe('https://mcp.example.com/sse?api_key=**********&x=2');
    expect(redactSecrets('Authorization was Bearer abcdef123')).toBe('Authorization was Bearer **********');
  });
});

/** Longer than any cut-off masking once had (65,536): a 130 KB body's string. */
const LONG = 130_000;
/**
 * Most a structured value may cost per character, as a multiple of one plain string's: walking
 * 26,000 small values costs more per character than one scan (20–70× on a busy 2-core machine);
 * quadratic work at these lengths costs over 10,000×.
 */
const MAX_PLACE_RATIO = 300;

/** The fastest of three runs of `work`, in milliseconds (at least a tenth of one). */
function costOf(work: () => unknown): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    work();
    best = Math.min(best, performance.now() - start);
  }
  return Math.max(best, 0.1);
}

describe('redactSecrets on MCP servers, by place (130 KB strings)', () => {
  const plain = costOf(() => redactSecrets({ title: 'a'.repeat(LONG) }));
  const server = (fields: Record<string, unknown>) => ({ mcp_config: { s: fields } });
  for (const [name, value] of [
    ['a URL of 32,500 query pairs', server({ url: `https://h/?${'a=b&'.repeat(LONG / 4)}` })],
    ['a URL of "@" and ":" runs', server({ url: `https://${'a:@'.repeat(LONG / 3)}/x` })],
    ['a URL of "#" and "=" runs', server({ url: `https://h/${'#='.repeat(LONG / 2)}` })],
    ['args of a long flag and a long header line', server({ args: [`--${'a'.repeat(LONG)}!`, 'x', '-H', `${' '.repeat(LONG)}:`] })],
    ['args of 26,000 flags and values', server({ args: Array.from({ length: LONG / 5 }, (_, i) => (i % 2 ? 'v' : '--k')) })],
    [
      '15 such URLs (a 2 MB body)',
      {
        mcp_config: Object.fromEntries(
          Array.from({ length: 15 }, (_, i) => [`s${i}`, { url: `https://u:p@h/?${'a=b&'.repeat(LONG / 4)}` }]),
        ),
      },
    ],
  ] as const) {
    it(`masks ${name} in time linear in its length (under ${MAX_PLACE_RATIO}× a plain text's per character)`, () => {
      const chars = JSON.stringify(value).length;
      expect(costOf(() => redactSecrets(value)) / chars / (plain / LONG)).toBeLessThan(MAX_PLACE_RATIO);
    });
  }

  it('puts back a URL of 32,500 masked query pairs sent back in time linear in its length', () => {
    const stored = server({ url: `https://h/?${'a=b&'.repeat(LONG / 4)}` });
    const answered = redactSecrets(stored);
    const chars = JSON.stringify(stored).length;
    expect(unmaskedSecrets(answered, stored)).toEqual(stored);
    expect(costOf(() => unmaskedSecrets(answered, stored)) / chars / (plain / LONG)).toBeLessThan(MAX_PLACE_RATIO);
  });
});
