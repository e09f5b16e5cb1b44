/**
 * The shapes of what a run's LLM calls used (software-agent-sdk `llm/utils/metrics.py`): a module
 * of types alone, so the state names what its stats reader returns without importing the reading
 * (`vocabulary-stats.ts`).
 */

/** One call's tokens (`TokenUsage`). */
export interface TokenUsage {
  model: string;
  prompt_tokens: number;
  completion_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  reasoning_tokens: number;
  context_window: number;
  per_turn_token: number;
  response_id: string;
}

/** What one usage id has used (`MetricsSnapshot`). */
export interface MetricsSnapshot {
  model_name: string;
  accumulated_cost: number;
  max_budget_per_task: number | null;
  accumulated_token_usage: TokenUsage;
}
