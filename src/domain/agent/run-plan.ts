/**
 * The built-in run's shape as every request needs it (its length, the step after which its edit is
 * done), written out so a page's first chunks read it without the script and the event builders
 * behind it (`default-script.ts`, `vocabulary.ts`: issue 30). The script is the truth: these are
 * what it says, and test/agent-server/run-plan.test.ts fails when the two differ.
 */

/** How many steps the built-in run has: `DEFAULT_SCRIPT.length` (`default-script.ts`). */
export const RUN_STEPS = 7;

/** The step after which the built-in run's file edit is done: `DEFAULT_EDIT_AFTER` (`default-script.ts`, the step after its `FileEditorAction`). */
export const EDIT_DONE_AFTER = 4;
