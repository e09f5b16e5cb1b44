/**
 * Masking secrets in free text (src/domain/store/redact.ts) takes time in proportion to the text,
 * whatever its shape: two shapes backtracked quadratically (a run of "token" words, 1.6 s at
 * 60,000 characters; a run of "a+", 4 s), stalling every request whose answer is masked. Each is
 * measured as a ratio to masking a plain text of the same length in the same run, so a slow machine
 * moves both sides alike.
 */
import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../src/domain/store/redact.js';

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
