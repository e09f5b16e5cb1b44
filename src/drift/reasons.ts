/** Reasons shared by the app server's declared differences (`known-differences.ts`) and the agent host's (`known-agent-differences.ts`). */

/** Why events differ in the documents: the fake declares what every event has. */
export const EVENTS_REASON =
  "events are served as the agent server writes them (each kind with its own fields, none null); the fake's document declares the fields every event has (kind, id, timestamp, source), where the real one lists the union of every kind's";
/** Why ConversationInfo differs: the fake types the fields a client reads. */
export const CONVERSATION_INFO_REASON =
  "the fake's document types the fields of ConversationInfo a client reads (id, the agent's kind and model, workspace, status, policy, title, dates) and serves the others as the agent server writes them; the real document spells out every agent and LLM option";
/** Why file and git paths differ: the newest source reads them from the query. */
export const PATH_QUERY_REASON =
  'the newest source (v1.20.0, May 2026: file_router.py, git_router.py) reads the path from ?path= and dropped the {path} form; the Feb 2026 document has only the {path} form, which the Nov 2025 web client calls and the fake serves too';
