/**
 * Every deliberate difference between the fake's OpenAPI document and the real service's, each
 * with its reason. `fakehands drift` reports these as known (never silently dropped) and reports
 * a declaration that no longer matches anything as stale.
 */
import type { KnownDifference } from './compare.js';

/** The declared differences. */
export const KNOWN_DIFFERENCES: readonly KnownDifference[] = [];
