/**
 * The built-in run (look around, change one file, answer) and what every run step is made of: a
 * module of its own so `status.ts` derives the run's length from it without loading the agent.
 */
import { events, text, type EventFields } from './vocabulary.js';

/** What a step's event is made from: the conversation's turn, the workspace before and after it. */
export interface RunContext {
  turn: number;
  before: Record<string, string>;
  after: Record<string, string>;
  projectDir: string;
  /** Ids of the events this run published so far, by step index (an observation names its action). */
  ids: string[];
  /** The tool call id of the run's step `step`. */
  callId(step: number): string;
  /** The value of a `stats` state update now: the conversation's LLM statistics as its log has them (`vocabulary-stats.ts`). */
  stats?: () => unknown;
}

/** What a run's step publishes, and when: `at` is a fraction of `agentRunMs` after the run started. */
export interface RunStep {
  at: number;
  event(context: RunContext): EventFields;
}

/** The path the turn changed, with its content before and after (absent: the file was not there). */
export function turnChange(context: RunContext): { path: string; before: string | undefined; after: string | undefined } {
  const paths = [...new Set([...Object.keys(context.before), ...Object.keys(context.after)])].sort();
  const path = paths.find((p) => context.before[p] !== context.after[p]) ?? 'PLAN.md';
  return { path, before: context.before[path], after: context.after[path] };
}

function listing(files: Record<string, string>): string {
  return Object.keys(files)
    .sort()
    .map((path) => `${String(files[path]!.length).padStart(6)} ${path}`)
    .join('\n');
}

/**
 * What the terminal read from its prompt after a command (`CmdOutputMetadata`, openhands-tools
 * `terminal/metadata.py`): every `TerminalObservation` carries it (a client reads its `exit_code`).
 */
export function terminalMetadata(c: RunContext, exitCode: number) {
  return {
    exit_code: exitCode,
    pid: -1,
    username: 'openhands',
    hostname: 'sandbox',
    working_dir: c.projectDir,
    py_interpreter_path: '/usr/bin/python3',
    prefix: '',
    suffix: '',
  };
}

/** The turn's file edit as a `FileEditorAction` (create or str_replace), called with `callId`. */
export function editAction(c: RunContext, callId: string): EventFields {
  const change = turnChange(c);
  const action =
    change.before === undefined
      ? { kind: 'FileEditorAction', command: 'create', path: `${c.projectDir}/${change.path}`, file_text: change.after ?? '' }
      : {
          kind: 'FileEditorAction',
          command: 'str_replace',
          path: `${c.projectDir}/${change.path}`,
          old_str: change.before,
          new_str: change.after ?? '',
        };
  return events.action('file_editor', callId, action, `I will update ${change.path}.`, action);
}

/** The turn's file edit's `FileEditorObservation`, for the action `actionId`. */
export function editObservation(c: RunContext, callId: string, actionId: string | undefined): EventFields {
  const change = turnChange(c);
  const path = `${c.projectDir}/${change.path}`;
  return events.observation('file_editor', callId, actionId, {
    kind: 'FileEditorObservation',
    content: text(change.before === undefined ? `File created successfully at: ${path}` : `The file ${path} has been edited.`),
    is_error: false,
    command: change.before === undefined ? 'create' : 'str_replace',
    path,
    prev_exist: change.before !== undefined,
    ...(change.before !== undefined ? { old_content: change.before } : {}),
    new_content: change.after ?? '',
  });
}

/** The built-in script: look around, change one file, answer. */
export const DEFAULT_SCRIPT: readonly RunStep[] = Object.freeze<RunStep[]>([
  { at: 0, event: () => events.stateUpdate('execution_status', 'running') },
  {
    at: 0.2,
    event: (c) =>
      events.action(
        'terminal',
        c.callId(1),
        { kind: 'TerminalAction', command: 'git ls-files | xargs wc -c', is_input: false, reset: false },
        'Let me look at the files of the project first.',
        { command: 'git ls-files | xargs wc -c' },
      ),
  },
  {
    at: 0.4,
    event: (c) =>
      events.observation('terminal', c.callId(1), c.ids[1], {
        kind: 'TerminalObservation',
        content: text(`${listing(c.before)}\n`),
        is_error: false,
        command: 'git ls-files | xargs wc -c',
        exit_code: 0,
        timeout: false,
        metadata: terminalMetadata(c, 0),
      }),
  },
  { at: 0.6, event: (c) => editAction(c, c.callId(3)) },
  { at: 0.8, event: (c) => editObservation(c, c.callId(3), c.ids[3]) },
  { at: 1, event: () => events.stateUpdate('execution_status', 'finished') },
  { at: 1, event: (c) => events.message('assistant', `Done: I changed ${turnChange(c).path}. Have a look at the Changes tab.`) },
]);

/** A context to read what a step publishes without a conversation (its kind and inner kind). */
export const PROBE_CONTEXT: RunContext = Object.freeze({
  turn: 0,
  before: {},
  after: { 'PLAN.md': '' },
  projectDir: '',
  ids: [],
  callId: () => '',
});

/**
 * The step after which the built-in run's file edit is done: the one after its `FileEditorAction`,
 * read from the script. The edit shows from the moment its action is published, as a real tool's
 * edit is done milliseconds after it (openhands-sdk `agent.py`: the `ActionEvent` goes out, then the
 * tool runs at once), and a web client refetches git changes on the action (the Nov 2025 frontend's
 * `utils/cache-utils.ts`, `handleActionEventCacheInvalidation`).
 */
export const DEFAULT_EDIT_AFTER =
  DEFAULT_SCRIPT.findIndex((step) => {
    const event = step.event(PROBE_CONTEXT);
    return event.kind === 'ActionEvent' && event.action.kind === 'FileEditorAction';
  }) + 1;
