/**
 * Public surface of the LLM layer (the only layer that imports `openai`): the client with structured output and
 * usage accounting, the remote embedder, prompt templates, reply schemas and the typed errors.
 */
export {
  createLlm,
  llmSettingsFromConfig,
  DUMMY_API_KEY,
  type Llm,
  type LlmSettings,
  type Prompt,
  type CompleteMeta,
} from './client.js'
export { remoteEmbedder, probeEmbedder } from './embedder.js'
export { LlmError, LlmBudgetError, LlmInvalidError, type LlmFailureKind } from './errors.js'
export { schemaFormat, extractJson, validateAnswer, type SchemaFormat } from './json-schema.js'
export {
  loadPrompt,
  loadPrompts,
  parseTemplate,
  quoteData,
  PROMPT_SLOTS,
  PROMPTS_DIR,
  type PromptName,
  type PromptTemplate,
  type ShippedPrompts,
  type SlotsOf,
} from './prompts.js'
export { SummaryReply } from './replies.js'
export {
  UsageLedger,
  estimateTokens,
  type UsageSnapshot,
  type UsageTotals,
  type UsageMeta,
  type TokenUsage,
} from './usage.js'
