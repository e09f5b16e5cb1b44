/**
 * The scripts of the fake's agent (the `agentScripts` option, `PUT /_fakehands/agent/scripts`): a
 * module of its own, since a fake's options need it and nothing else of the agent server's schemas.
 */
import * as z from 'zod/mini';

/** One step of an agent script: a terminal command and its output, the turn's file edit, a message, a tool error, a failure or being stuck. */
export const AgentScriptStep = z.union([
  z.strictObject({ terminal: z.strictObject({ command: z.string().check(z.minLength(1)), output: z._default(z.string(), ''), exit_code: z._default(z.int(), 0) }) }),
  z.strictObject({ edit: z.literal(true) }),
  z.strictObject({ message: z.string().check(z.minLength(1)) }),
  z.strictObject({ error: z.string().check(z.minLength(1)) }),
  z.strictObject({ fail: z.strictObject({ code: z._default(z.string().check(z.minLength(1)), 'AgentError'), detail: z.string().check(z.minLength(1)) }) }),
  z.strictObject({ stuck: z.literal(true) }),
]);

/**
 * A script of the fake's agent: the steps of a run, for a user message whose text contains `match`
 * (case-insensitive; a script without `match` answers any message).
 */
export const AgentScript = z.strictObject({
  match: z.optional(z.string().check(z.minLength(1))),
  steps: z.array(AgentScriptStep).check(z.minLength(1), z.maxLength(200)),
});
export type AgentScript = z.output<typeof AgentScript>;
