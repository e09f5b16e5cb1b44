/**
 * A script's steps compiled into run steps: what events each step kind publishes (the README's
 * vocabulary table), in one exhaustive `switch` over `StepKind` — a kind added to
 * `schemas/agent-script.ts` does not type-check until it has its case here.
 */
import { stepKind, type AgentScript, type AgentScriptStep } from '../../schemas/agent-script.js';
import { editAction, editObservation, PROBE_CONTEXT, terminalMetadata, type RunContext, type RunStep } from './default-script.js';
import { events, text, type EventFields } from './vocabulary.js';
import { body, browserSaw, newerStepEvents, ok, toolCall, type NewerKind, type Scripted } from './vocabulary-steps.js';

/** Where a step's events go in the run: the index of its first event, and the run's last action so far. */
interface Slot {
  index: number;
  lastAction: { index: number; tool: string } | undefined;
}

/** The events of one step. */
export function stepEvents(step: AgentScriptStep, slot: Slot): Scripted[] {
  const { index } = slot;
  const kind = stepKind(step);
  switch (kind) {
    case 'terminal': {
      const { command, output, exit_code } = body(step, kind);
      const action = { kind: 'TerminalAction', command, is_input: false, reset: false };
      return [
        // No thought: the scripted LLM says nothing beside a terminal call (`domain/llm/turns.ts`), so the real agent has none either.
        { event: (c) => events.action('terminal', c.callId(index), action, '', { command }) },
        {
          event: (c) =>
            events.observation('terminal', c.callId(index), c.ids[index], {
              kind: 'TerminalObservation',
              content: text(output),
              is_error: exit_code !== 0,
              command,
              exit_code,
              timeout: false,
              metadata: terminalMetadata(c, exit_code),
            }),
        },
      ];
    }
    case 'edit':
      return [{ event: (c) => editAction(c, c.callId(index)) }, { event: (c) => editObservation(c, c.callId(index), c.ids[index]) }];
    case 'message':
      return [{ event: () => events.message('assistant', body(step, kind)) }];
    case 'error':
      return [{ event: (c) => events.agentError('terminal', c.callId(index), body(step, kind)) }];
    case 'fail': {
      const { code, detail } = body(step, kind);
      return [
        { event: () => events.conversationError(code, detail) },
        { event: () => events.stateUpdate('execution_status', 'error'), ends: 'error' },
      ];
    }
    case 'stuck':
      return [{ event: () => events.stateUpdate('execution_status', 'stuck'), ends: 'stuck' }];
    case 'think': {
      const thought = body(step, kind);
      return toolCall(index, 'think', { kind: 'ThinkAction', thought }, '', () => ({
        kind: 'ThinkObservation',
        ...ok('Your thought has been logged.'),
      }));
    }
    case 'finish': {
      const message = body(step, kind);
      return toolCall(index, 'finish', { kind: 'FinishAction', message }, '', () => ({ kind: 'FinishObservation', ...ok(message) }));
    }
    case 'task_tracker': {
      const tasks = body(step, kind).tasks;
      return toolCall(
        index,
        'task_tracker',
        { kind: 'TaskTrackerAction', command: 'plan', task_list: tasks },
        'Let me plan the work.',
        () => ({
          kind: 'TaskTrackerObservation',
          ...ok(`Task list has been updated with ${tasks.length} item(s).`),
          command: 'plan',
          task_list: tasks,
        }),
      );
    }
    case 'task': {
      const { prompt, subagent_type, description, result } = body(step, kind);
      return toolCall(
        index,
        'task',
        { kind: 'TaskAction', prompt, subagent_type, ...(description ? { description } : {}) },
        'A sub-agent can do this.',
        (c) => ({
          kind: 'TaskObservation',
          ...ok(result),
          task_id: `task_${c.callId(index)}`,
          subagent: subagent_type,
          status: 'completed',
        }),
      );
    }
    case 'browser_navigate': {
      const { url, new_tab } = body(step, kind);
      return toolCall(
        index,
        'browser_navigate',
        { kind: 'BrowserNavigateAction', url, new_tab },
        `Let me open ${url}.`,
        browserSaw(`Navigated to ${url}`),
      );
    }
    case 'browser_click': {
      const { index: element, new_tab } = body(step, kind);
      return toolCall(
        index,
        'browser_click',
        { kind: 'BrowserClickAction', index: element, new_tab },
        'Let me click it.',
        browserSaw(`Clicked element ${element}`),
      );
    }
    case 'browser_type': {
      const { index: element, text: typed } = body(step, kind);
      return toolCall(
        index,
        'browser_type',
        { kind: 'BrowserTypeAction', index: element, text: typed },
        'Let me fill it in.',
        browserSaw(`Typed into element ${element}`),
      );
    }
    case 'glob': {
      const { pattern, files } = body(step, kind);
      return toolCall(index, 'glob', { kind: 'GlobAction', pattern }, 'Let me find the files.', (c) => ({
        kind: 'GlobObservation',
        ...ok(files.join('\n')),
        files,
        pattern,
        search_path: c.projectDir,
        truncated: false,
      }));
    }
    case 'grep': {
      const { pattern, include, matches } = body(step, kind);
      return toolCall(index, 'grep', { kind: 'GrepAction', pattern, ...(include ? { include } : {}) }, 'Let me search the code.', (c) => ({
        kind: 'GrepObservation',
        ...ok(matches.join('\n')),
        matches,
        pattern,
        search_path: c.projectDir,
        ...(include ? { include_pattern: include } : {}),
        truncated: false,
      }));
    }
    case 'mcp': {
      const { tool, arguments: data, result } = body(step, kind);
      return toolCall(index, tool, { kind: 'MCPToolAction', data }, `Let me ask the ${tool} tool.`, () => ({
        kind: 'MCPToolObservation',
        ...ok(result),
        tool_name: tool,
      }));
    }
    case 'skill': {
      const name = body(step, kind);
      return toolCall(index, 'invoke_skill', { kind: 'InvokeSkillAction', name }, `The ${name} skill fits.`, () => ({
        kind: 'InvokeSkillObservation',
        ...ok(`Skill ${name} loaded.`),
        skill_name: name,
      }));
    }
    case 'plan': {
      const plan = body(step, kind);
      const path = (c: RunContext) => `${c.projectDir}/.agents_tmp/PLAN.md`;
      return [
        {
          event: (c) =>
            events.action(
              'planning_file_editor',
              c.callId(index),
              { kind: 'PlanningFileEditorAction', command: 'create', path: path(c), file_text: plan },
              'Let me write the plan down.',
            ),
        },
        {
          event: (c) =>
            events.observation('planning_file_editor', c.callId(index), c.ids[index], {
              kind: 'PlanningFileEditorObservation',
              ...ok(`File created successfully at: ${path(c)}`),
              command: 'create',
              path: path(c),
              prev_exist: false,
              new_content: plan,
            }),
        },
      ];
    }
    case 'str_replace': {
      const { path, old_str, new_str } = body(step, kind);
      const full = (c: RunContext) => (path.startsWith('/') ? path : `${c.projectDir}/${path}`);
      return [
        {
          event: (c) =>
            events.action(
              'str_replace_editor',
              c.callId(index),
              { kind: 'StrReplaceEditorAction', command: 'str_replace', path: full(c), old_str, new_str },
              `I will edit ${path}.`,
            ),
        },
        {
          event: (c) =>
            events.observation('str_replace_editor', c.callId(index), c.ids[index], {
              kind: 'StrReplaceEditorObservation',
              ...ok(`The file ${full(c)} has been edited.`),
              command: 'str_replace',
              path: full(c),
              prev_exist: true,
              old_content: old_str,
              new_content: new_str,
            }),
        },
      ];
    }
    case 'switch_llm': {
      const { profile, model, reason } = body(step, kind);
      return toolCall(index, 'switch_llm', { kind: 'SwitchLLMAction', profile_name: profile, reason }, reason, () => ({
        kind: 'SwitchLLMObservation',
        ...ok(`Switched to ${profile} (${model}).`),
        profile_name: profile,
        reason,
        active_model: model,
      }));
    }
    case 'hook': {
      const h = body(step, kind);
      const toolName = h.event === 'PreToolUse' || h.event === 'PostToolUse' ? (slot.lastAction?.tool ?? 'terminal') : undefined;
      return [{ event: () => events.hook(h.event, h.command, h.blocked, h.stdout, toolName, h.reason) }];
    }
    case 'condense': {
      const summary = body(step, kind).summary;
      return [
        { event: () => events.condensationRequest() },
        { event: (c) => events.condensation(c.ids.slice(1, index), summary, `resp_${c.callId(index)}`) },
        { event: () => events.condensationSummary(summary) },
      ];
    }
    case 'acp_tool_call': {
      const { title, tool_kind, status, output } = body(step, kind);
      return [{ event: (c) => events.acpToolCall(c.callId(index), title, tool_kind, status, { title }, output) }];
    }
    case 'llm_log': {
      const { model, usage_id } = body(step, kind);
      return [
        {
          event: (c) =>
            events.llmCompletionLog(
              model,
              usage_id,
              `${model.replaceAll('/', '__')}-${c.callId(index)}.json`,
              JSON.stringify({ model, usage: { prompt_tokens: 1200, completion_tokens: 80 } }),
            ),
        },
      ];
    }
    case 'tokens': {
      const { prompt, response } = body(step, kind);
      return [{ event: () => events.tokens(prompt, response) }];
    }
    case 'interrupt':
      return [{ event: () => events.interrupt() }];
    case 'pause':
      return [{ event: () => events.pause() }];
    case 'reject': {
      const reason = body(step, kind);
      const last = slot.lastAction;
      return [
        {
          event: (c) =>
            events.reject(last?.tool ?? 'terminal', c.callId(last?.index ?? index), last ? (c.ids[last.index] ?? '') : '', reason),
        },
      ];
    }
    case 'browser_scroll':
    case 'browser_go_back':
    case 'browser_get_state':
    case 'browser_get_content':
    case 'browser_list_tabs':
    case 'browser_switch_tab':
    case 'browser_close_tab':
    case 'browser_get_storage':
    case 'browser_set_storage':
    case 'browser_start_recording':
    case 'browser_stop_recording':
    case 'canvas_ui':
    case 'client_tool':
    case 'vision_inspect':
    case 'stats':
      return newerStepEvents(step, kind satisfies NewerKind, index);
    default:
      return unknownStep(kind);
  }
}

/** The exhaustive check: a kind without a case is a type error here, and a step of no kind a thrown error at run time. */
function unknownStep(kind: never): never {
  throw new Error(`Unknown agent script step: ${JSON.stringify(kind)}`);
}

/**
 * Turns a user's script into run steps: `running` first; then each step's events spread evenly
 * over the run; then `finished`, unless a step ended the run (`fail`: error; `stuck`).
 */
export function compileScript(script: AgentScript): { steps: RunStep[]; editAfter: number } {
  const scripted: Scripted[] = [];
  let editAfter = -1;
  let lastAction: Slot['lastAction'];
  for (const step of script.steps) {
    const index = scripted.length + 1;
    const produced = stepEvents(step, { index, lastAction });
    scripted.push(...produced);
    // The edit shows once its action is published (`DEFAULT_EDIT_AFTER` says why): `index` is the action's step, counted after `running`.
    if (stepKind(step) === 'edit') editAfter = index + 1;
    const probe = produced[0]!.event(PROBE_CONTEXT);
    if (probe.kind === 'ActionEvent') lastAction = { index, tool: probe.tool_name };
    if (scripted.at(-1)?.ends) break;
  }
  const ended = scripted.at(-1)?.ends !== undefined;
  const total = scripted.length + (ended ? 0 : 1);
  const steps: RunStep[] = [{ at: 0, event: () => events.stateUpdate('execution_status', 'running') }];
  scripted.forEach((s, i) => steps.push({ at: ended && i === scripted.length - 1 ? 1 : (i + 1) / total, event: s.event }));
  if (!ended) steps.push({ at: 1, event: () => events.stateUpdate('execution_status', 'finished') });
  return { steps, editAfter: editAfter < 0 ? steps.length : editAfter };
}

/** The event kinds a step publishes (for the README's vocabulary table and its test). */
export function stepEventKinds(step: AgentScriptStep): string[] {
  return stepEvents(step, { index: 1, lastAction: { index: 1, tool: 'terminal' } }).map((s) => {
    const e: EventFields = s.event({ turn: 0, before: {}, after: { 'a.txt': 'a' }, projectDir: '/w', ids: ['', 'x'], callId: () => 'c' });
    return e.kind === 'ActionEvent' || e.kind === 'ObservationEvent'
      ? `${e.kind}:${(e.kind === 'ActionEvent' ? e.action : e.observation).kind}`
      : e.kind === 'ConversationStateUpdateEvent'
        ? typeof e.value === 'string'
          ? `${e.key}=${e.value}`
          : `${e.kind}:${e.key}`
        : e.kind;
  });
}
