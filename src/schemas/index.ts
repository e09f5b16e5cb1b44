/** The wire schemas of the API: the single source of truth for validation, types, fixtures and OpenAPI. */
export * from './common.js';
export * from './errors.js';
export * from './mcp.js';
export * from './legacy.js';
export * from './sandbox-spec.js';
export * from './sandbox.js';
export * from './app-conversation.js';
export * from './records.js';
export * from './fixture.js';
export * from './control.js';
