/**
 * Memory rows: the shapes of what the bot learns and keeps in memory.db (executed plans, reference plans, lessons
 * from the failure analyser, knowledge chunks) and of the portable export file. Used by src/memory for validation
 * on read and write, by the `memory` CLI and chat command for display, and by anyone recording a run.
 */
import { z } from 'zod'
import { Action } from './action.js'

export const PlanOutcome = z.enum(['success', 'failure'])
export type PlanOutcome = z.infer<typeof PlanOutcome>

const who = z.string().max(64).nullable().default(null)

/** One executed plan as the agent reports it (input to `MemoryStore.recordPlan`). */
export const PlanRun = z.object({
  goalKey: z.string().min(1).max(200).describe('goalKey(goal) from src/schemas/goal.ts'),
  goalText: z.string().min(1).max(2000).describe('the sub-goal in words; this is what gets embedded'),
  state: z.string().max(4000).default('').describe('short summary of the bot state when the plan started'),
  actions: z.array(Action).min(1).max(200),
  outcome: PlanOutcome,
  durationMs: z.number().int().nonnegative(),
  llmCalls: z.number().int().nonnegative().default(0),
  player: who.describe('who asked'),
  bot: who.describe('which bot ran it'),
  server: who.describe('which server, e.g. host:port'),
  createdAt: z.number().int().nonnegative().optional().describe('epoch ms; now when omitted'),
})
export type PlanRun = z.infer<typeof PlanRun>
export type PlanRunInput = z.input<typeof PlanRun>

/** A stored plan row. `summarised` is true once the plan went into a reference plan. */
export const StoredPlan = PlanRun.required({ createdAt: true }).extend({
  id: z.number().int().positive(),
  summarised: z.boolean(),
})
export type StoredPlan = z.infer<typeof StoredPlan>

/** The one reference plan of a goal: a summary of successful plans. */
export const ReferencePlan = z.object({
  goalKey: z.string().min(1),
  goalText: z.string(),
  actions: z.array(Action).min(1),
  sourceCount: z.number().int().nonnegative().describe('successful plans summarised into it so far'),
  summariser: z.string().describe('which summariser wrote it, e.g. offline-merge or an LLM model'),
  updatedAt: z.number().int(),
})
export type ReferencePlan = z.infer<typeof ReferencePlan>

export const Lesson = z.object({
  goalKey: z.string().min(1),
  cause: z.string().min(1).max(2000),
  suggestions: z.array(z.string().max(1000)).max(20).default([]),
  player: who,
  bot: who,
  createdAt: z.number().int().nonnegative().optional(),
})
export type Lesson = z.infer<typeof Lesson>
export type LessonInput = z.input<typeof Lesson>
export const StoredLesson = Lesson.required({ createdAt: true }).extend({ id: z.number().int().positive() })
export type StoredLesson = z.infer<typeof StoredLesson>

export const KnowledgeChunk = z.object({
  source: z.string().max(200).default('').describe('where the text came from, e.g. a wiki page or a player'),
  text: z.string().min(1).max(8000),
  createdAt: z.number().int().nonnegative().optional(),
})
export type KnowledgeChunk = z.infer<typeof KnowledgeChunk>
export type KnowledgeChunkInput = z.input<typeof KnowledgeChunk>
export const StoredKnowledge = KnowledgeChunk.required({ createdAt: true }).extend({ id: z.number().int().positive() })
export type StoredKnowledge = z.infer<typeof StoredKnowledge>

/** What retrieval returns for a sub-goal: the reference plan of an exactly matching or similar goal. */
export const RetrievedPlan = z.object({
  match: z.enum(['exact', 'similar']),
  similarity: z.number().describe('cosine similarity of the goal texts; 1 for an exact key match'),
  goalKey: z.string(),
  goalText: z.string(),
  source: z.enum(['summary', 'first_success']),
  planId: z.number().int().nullable().describe('the stored plan when source is first_success'),
  actions: z.array(Action).min(1),
})
export type RetrievedPlan = z.infer<typeof RetrievedPlan>

export const MemoryStats = z.object({
  path: z.string(),
  schemaVersion: z.number().int(),
  embedModel: z.string().nullable(),
  embedDim: z.number().int().nullable(),
  plans: z.number().int(),
  successes: z.number().int(),
  failures: z.number().int(),
  goals: z.number().int(),
  references: z.number().int(),
  lessons: z.number().int(),
  knowledge: z.number().int(),
  players: z.number().int(),
  bots: z.number().int(),
  fileBytes: z.number().int(),
})
export type MemoryStats = z.infer<typeof MemoryStats>

/** One line of `list`: a goal and what memory holds for it. */
export const GoalSummary = z.object({
  goalKey: z.string(),
  goalText: z.string(),
  plans: z.number().int(),
  successes: z.number().int(),
  hasReference: z.boolean(),
  lastAt: z.number().int(),
})
export type GoalSummary = z.infer<typeof GoalSummary>

/** A named place on one server ("base", "home"): saved by a player, who (or an owner) may forget it (issue 17). */
export const NamedPlace = z.object({
  server: z.string().min(1).describe('host:port of the Minecraft server; places are per server'),
  name: z
    .string()
    .regex(/^[a-z0-9_]{1,40}$/)
    .describe('lower case, underscores for spaces'),
  x: z.number().int(),
  y: z.number().int(),
  z: z.number().int(),
  dimension: z.string().min(1),
  owner: z.string().min(1).describe('the player who saved it'),
  createdAt: z.number().int().nonnegative(),
})
export type NamedPlace = z.infer<typeof NamedPlace>

export const MEMORY_EXPORT_VERSION = 1
/** The portable export file: no vectors (they are recomputed on import with the configured embedder). */
export const MemoryExport = z.object({
  format: z.literal('ghostcraft-memory'),
  version: z.literal(MEMORY_EXPORT_VERSION),
  exportedAt: z.number().int(),
  plans: z.array(StoredPlan.omit({ id: true })),
  references: z.array(ReferencePlan),
  lessons: z.array(StoredLesson.omit({ id: true })),
  knowledge: z.array(StoredKnowledge.omit({ id: true })),
  /** Named places of every server (absent in exports written before places were exported). */
  places: z.array(NamedPlace).default([]),
})
export type MemoryExport = z.infer<typeof MemoryExport>
