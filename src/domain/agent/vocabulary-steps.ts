/**
 * What a step is made of (a tool's round trip, a browser's answer), and the events of the step kinds
 * Agent Canvas renders beyond the first vocabulary (issue 35): the rest of the browser tool set
 * (openhands-tools `browser_use/definition.py`: scroll, go back, state, content, tabs, storage,
 * recording), its canvas UI client tool (`canvas_ui_control`, Agent Canvas 1.20
 * `dist/constants/canvas-ui.js`), any client tool (openhands-sdk `tool/client_tool.py`: action kind
 * `ClientAction_<name>`, answered at once with a `ClientToolObservation`), the vision inspection
 * (`tool/builtins/vision_inspect.py`) and the run's `stats` state update. `steps.ts` hands these
 * kinds here from its exhaustive `switch`.
 */
import type { AgentScriptStep, StepKind } from '../../schemas/agent-script.js';
import type { RunContext, RunStep } from './default-script.js';
import { events, SCREENSHOT_PNG, text, type ToolPayload } from './vocabulary.js';

/** One event a step publishes; `ends` when it ends the run with that status. */
export type Scripted = { event: RunStep['event']; ends?: 'error' | 'stuck' };

/** A step's body, typed by its kind. */
type BodyOf<K extends StepKind> = Extract<AgentScriptStep, Record<K, unknown>>[K];

/** The body of `step`, of kind `kind`. */
export const body = <K extends StepKind>(step: AgentScriptStep, kind: K) => (step as unknown as Record<K, BodyOf<K>>)[kind];

/** A tool's round trip: the action at `index`, then its observation naming it. */
export function toolCall(
  index: number,
  tool: string,
  action: ToolPayload,
  thought: string,
  observation: (c: RunContext) => ToolPayload,
): Scripted[] {
  return [
    { event: (c) => events.action(tool, c.callId(index), action, thought) },
    { event: (c) => events.observation(tool, c.callId(index), c.ids[index], observation(c)) },
  ];
}

/** A successful observation's common fields. */
export const ok = (value: string) => ({ content: text(value), is_error: false });

/** The browser's answer: the page's state as text and a small screenshot (`BrowserObservation`). */
export const browserSaw = (value: string) => (): ToolPayload => ({
  kind: 'BrowserObservation',
  ...ok(value),
  screenshot_data: SCREENSHOT_PNG,
});

/** The step kinds this module makes events for. */
export const NEWER_KINDS = [
  'browser_scroll',
  'browser_go_back',
  'browser_get_state',
  'browser_get_content',
  'browser_list_tabs',
  'browser_switch_tab',
  'browser_close_tab',
  'browser_get_storage',
  'browser_set_storage',
  'browser_start_recording',
  'browser_stop_recording',
  'canvas_ui',
  'client_tool',
  'vision_inspect',
  'stats',
] as const satisfies readonly StepKind[];

/** One of the kinds this module makes events for. */
export type NewerKind = (typeof NEWER_KINDS)[number];

/** The tab the fake's browser shows (`BrowserListTabsAction`'s answer). */
const TABS = '[{"id": "4F2A", "title": "Local app", "url": "http://localhost:3000/"}]';
/** The tool name of Agent Canvas's UI client tool (`CANVAS_UI_CLIENT_TOOL_NAME`). */
export const CANVAS_UI_TOOL = 'canvas_ui_control';
/** What a client tool's call answers at once (`client_tool.py`, `ClientToolExecutor`). */
const DISPATCHED = 'Tool call dispatched to client.';

/** A browser tool's round trip: `browser_<name>` with `Browser<Kind>Action`, answered by a `BrowserObservation`. */
const browser = (index: number, name: string, kind: string, fields: Record<string, unknown>, thought: string, saw: string) =>
  toolCall(index, `browser_${name}`, { kind: `Browser${kind}Action`, ...fields }, thought, browserSaw(saw));

/** The events of a step of one of `NEWER_KINDS`, its first event at `index`. */
export function newerStepEvents(step: AgentScriptStep, kind: NewerKind, index: number): Scripted[] {
  switch (kind) {
    case 'browser_scroll': {
      const { direction } = body(step, kind);
      return browser(index, 'scroll', 'Scroll', { direction }, 'Let me see more of the page.', `Scrolled ${direction}`);
    }
    case 'browser_go_back':
      return browser(index, 'go_back', 'GoBack', {}, 'Back to the previous page.', 'Navigated back');
    case 'browser_get_state': {
      const { include_screenshot } = body(step, kind);
      return browser(
        index,
        'get_state',
        'GetState',
        { include_screenshot },
        'What can I click here?',
        '[3]<button>Sign in</button>\n[5]<input>',
      );
    }
    case 'browser_get_content': {
      const { extract_links, start_from_char } = body(step, kind);
      return browser(
        index,
        'get_content',
        'GetContent',
        { extract_links, start_from_char },
        'Let me read the page.',
        '# Local app\n\nSign in',
      );
    }
    case 'browser_list_tabs':
      return browser(index, 'list_tabs', 'ListTabs', {}, 'Which tabs are open?', TABS);
    case 'browser_switch_tab': {
      const { tab_id } = body(step, kind);
      return browser(index, 'switch_tab', 'SwitchTab', { tab_id }, 'Over to the other tab.', `Switched to tab ${tab_id}`);
    }
    case 'browser_close_tab': {
      const { tab_id } = body(step, kind);
      return browser(index, 'close_tab', 'CloseTab', { tab_id }, 'This tab is done.', `Closed tab ${tab_id}`);
    }
    case 'browser_get_storage':
      return browser(index, 'get_storage', 'GetStorage', {}, 'Which cookies does it keep?', '{"cookies": [], "origins": []}');
    case 'browser_set_storage': {
      const { storage_state } = body(step, kind);
      return browser(index, 'set_storage', 'SetStorage', { storage_state }, 'Let me restore the session.', 'Storage state set');
    }
    case 'browser_start_recording':
      return browser(index, 'start_recording', 'StartRecording', {}, 'Let me record this.', 'Recording started');
    case 'browser_stop_recording':
      return browser(index, 'stop_recording', 'StopRecording', {}, 'That is enough.', 'Recording stopped and saved');
    case 'canvas_ui': {
      const { command, path, tab } = body(step, kind);
      const action = { kind: `ClientAction_${CANVAS_UI_TOOL}`, command, ...(path ? { path } : {}), ...(tab ? { tab } : {}) };
      return toolCall(index, CANVAS_UI_TOOL, action, 'Let me show it to you.', () => ({
        kind: 'ClientToolObservation',
        ...ok(DISPATCHED),
      }));
    }
    case 'client_tool': {
      const { name, arguments: args } = body(step, kind);
      return toolCall(index, name, { kind: `ClientAction_${name}`, ...args }, `The ${name} tool of the client does this.`, () => ({
        kind: 'ClientToolObservation',
        ...ok(DISPATCHED),
      }));
    }
    case 'vision_inspect': {
      const { question, image_index, profile, model, answer } = body(step, kind);
      return toolCall(
        index,
        'inspect_image_with_vision',
        { kind: 'VisionInspectAction', image_index, question, profile_name: profile },
        'Let me look at the image.',
        () => ({ kind: 'VisionInspectObservation', ...ok(answer), image_index, question, profile_name: profile, model, answer }),
      );
    }
    case 'stats':
      return [{ event: (c) => events.stateUpdate('stats', c.stats?.() ?? { usage_to_metrics: {} }) }];
    default:
      return unknownNewer(kind);
  }
}

/** The exhaustive check of `newerStepEvents`. */
function unknownNewer(kind: never): never {
  throw new Error(`Unknown agent script step: ${JSON.stringify(kind)}`);
}
