/**
 * The built-in run's plan (`domain/agent/run-plan.ts`): what a page's first chunks read of the
 * built-in script (its length, the step after which its edit is done) without loading the script and
 * its event builders (issue 30). The script is the truth; these fail when the written-out plan and
 * the script differ.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_EDIT_AFTER, DEFAULT_SCRIPT, PROBE_CONTEXT } from '../../src/domain/agent/default-script.js';
import { EDIT_DONE_AFTER, RUN_STEPS } from '../../src/domain/agent/run-plan.js';

describe('the built-in run plan (run-plan.ts)', () => {
  it('has as many steps as the built-in script', () => {
    expect(RUN_STEPS).toBe(DEFAULT_SCRIPT.length);
  });

  it("says the edit is done after the script's FileEditorAction step", () => {
    expect(EDIT_DONE_AFTER).toBe(DEFAULT_EDIT_AFTER);
    const edit = DEFAULT_SCRIPT[EDIT_DONE_AFTER - 1]!.event(PROBE_CONTEXT) as { kind: string; action: { kind: string } };
    expect([edit.kind, edit.action.kind]).toEqual(['ActionEvent', 'FileEditorAction']);
  });
});
