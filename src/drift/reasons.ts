/** Reasons shared by the app server's declared differences (`known-differences.ts`) and the agent host's (`known-agent-differences.ts`). */

/** Why events differ in the documents: the fake declares what every event has. */
export const EVENTS_REASON =
  "the fake's document declares every event kind with every field, action, observation and tool (the union Event of the Feb 2026 app-server document, the newest the fake copies); the committed agent-server snapshot is older and lists fewer kinds, tools and fields";
/** Why ConversationInfo differs: the fake types the fields a client reads. */
export const CONVERSATION_INFO_REASON =
  "the fake's document types the fields of ConversationInfo a client reads (id, the agent's kind and model, workspace, status, policy, title, dates) and serves the others as the agent server writes them; the real document spells out every agent and LLM option";
/** Why file and git paths differ: the newest source reads them from the query. */
export const PATH_QUERY_REASON =
  'the newest source (v1.20.0, May 2026: file_router.py, git_router.py) reads the path from ?path= and dropped the {path} form; the Feb 2026 document has only the {path} form, which the Nov 2025 web client calls and the fake serves too';
