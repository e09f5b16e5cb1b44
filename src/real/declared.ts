/**
 * The differences between the fake and the real servers that are declared, each with its reason:
 * the one list the differential suite (`npm run test:real`) and the README's "Checked against the
 * real OpenHands" read. A fact is `scenario › step › path`; an entry names facts by a pattern (`*`
 * any run of characters) and, where it matters, what each side had there. A real server's bug is
 * named here, never copied.
 */
import type { Fact } from './compare.js';

/** Why a difference stands. */
export type DifferenceKind =
  /** The real server is wrong (a crash, a bug): named, not copied. */
  | 'real-bug'
  /** The fake differs on purpose (determinism, no real machine behind it). */
  | 'deliberate'
  /** Left for later: a known gap of the fake, with what it would take. */
  | 'gap';

/** One declared difference. */
export interface DeclaredDifference {
  /** The facts it covers: a pattern of fact ids (`*` any run of characters). */
  readonly fact: string;
  /** What the real server had there (a shape or value; absent: anything). */
  readonly real?: string;
  /** What the fake had there (absent: anything). */
  readonly fake?: string;
  /** Which kind of difference. */
  readonly kind: DifferenceKind;
  /** Why it stands, in a sentence. */
  readonly reason: string;
}

/** The declared differences. */
export const DECLARED_REAL_DIFFERENCES: readonly DeclaredDifference[] = [];

/** A pattern as a regular expression (`*` any run of characters, the rest as it is). */
const patternOf = (pattern: string) =>
  new RegExp(
    `^${pattern
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );

const compiled = new Map<string, RegExp>();

/** The declared difference that covers `fact`, or `null`. */
export function declaredFor(fact: Fact, list: readonly DeclaredDifference[] = DECLARED_REAL_DIFFERENCES): DeclaredDifference | null {
  for (const entry of list) {
    let pattern = compiled.get(entry.fact);
    if (!pattern) {
      pattern = patternOf(entry.fact);
      compiled.set(entry.fact, pattern);
    }
    if (!pattern.test(fact.id)) continue;
    if (entry.real !== undefined && entry.real !== fact.real) continue;
    if (entry.fake !== undefined && entry.fake !== fact.fake) continue;
    return entry;
  }
  return null;
}
