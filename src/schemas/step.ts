/**
 * The request language: what a player's words can mean, as one zod union of steps that both the offline grammar
 * (src/agent/request-grammar.ts) and the LLM (structured output, prompts/request.md) produce, and that the agent
 * checks against the knowledge and the requester's role before anything runs. A request is a short chain of steps
 * ("get 5 bread and bring them to me", "mine 10 iron then put it in the chest"), or a question back, or a refusal
 * with the reason. Nothing here can express roles, permissions or commands, so request text can never change them.
 */
import { z } from 'zod'
import { Conditions, MAX_COUNT } from './goal.js'

/** The most one obtain may ask for: 36 inventory slots of 64 (one constant, in goal.ts). */
export { MAX_COUNT }
export const MAX_STEPS = 8

const object = z
  .string()
  .min(1)
  .max(60)
  .describe('exact item, block or entity id for the game version, e.g. iron_ingot')
/** Who a step is for: the player who asked, the bot itself, or another player by name. */
export const Recipient = z
  .string()
  .regex(/^[A-Za-z0-9_]{1,16}$/)
  .describe("'requester' (the player who asked), 'self' (the bot keeps it) or another player's exact name")
export type Recipient = z.infer<typeof Recipient>

/** An item and how many; count null = all of it the bot has. */
export const ItemCount = z.object({ object, count: z.number().int().min(1).max(MAX_COUNT).nullable() })
export type ItemCount = z.infer<typeof ItemCount>

export const QuestionKind = z.enum([
  'recipe',
  'where',
  'drops',
  'smelt',
  'needs',
  'doing',
  'inventory',
  'position',
  'capabilities',
])
export type QuestionKind = z.infer<typeof QuestionKind>

export const ControlOp = z.enum(['stop', 'status', 'inventory', 'quiet', 'loud'])
export type ControlOp = z.infer<typeof ControlOp>

export const Step = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('obtain'),
      object,
      count: z.number().int().min(1).max(MAX_COUNT),
      conditions: Conditions.nullable(),
      for: Recipient,
    })
    .describe('get, craft, smelt, mine or find something; for = who receives it'),
  z
    .object({
      kind: z.literal('give'),
      items: z.array(ItemCount).max(MAX_STEPS).describe('empty = everything but tools'),
      to: Recipient,
    })
    .describe('hand over what the bot already carries'),
  z
    .object({
      kind: z.literal('answer'),
      question: QuestionKind,
      subject: object.nullable(),
      have: z
        .array(ItemCount)
        .max(16)
        .nullable()
        .describe('for "needs": the inventory the player says they have; null = the bot\'s'),
    })
    .describe('a question answered from game data'),
  z.object({
    kind: z.literal('move'),
    mode: z.enum(['come', 'follow', 'goto']),
    player: Recipient.nullable(),
    x: z.number().int().nullable(),
    y: z.number().int().nullable(),
    z: z.number().int().nullable(),
    place: z.string().min(1).max(40).nullable().describe('a named place such as base, home, spawn'),
  }),
  z.object({
    kind: z.literal('store'),
    op: z.enum(['deposit', 'withdraw']),
    items: z.array(ItemCount).max(MAX_STEPS).describe('empty = everything'),
    chest: z.string().max(40).nullable(),
  }),
  z.object({ kind: z.literal('build'), blueprint: z.string().min(1).max(40), where: z.string().max(60).nullable() }),
  z.object({ kind: z.literal('guard'), player: Recipient }),
  z.object({ kind: z.literal('attack'), mob: object }),
  z.object({ kind: z.literal('control'), op: ControlOp }),
])
export type Step = z.infer<typeof Step>
export type StepKind = Step['kind']
export const STEP_KINDS = Step.options.map((o) => o.shape.kind.value) as StepKind[]

/** What a request means: steps to run in order, a question back, or a refusal with the reason. */
export const Understanding = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('steps'), steps: z.array(Step).min(1).max(MAX_STEPS) }),
  z.object({ kind: z.literal('clarify'), question: z.string().min(1).max(300) }),
  z.object({ kind: z.literal('refuse'), reason: z.string().min(1).max(300) }),
])
export type Understanding = z.infer<typeof Understanding>

/** One line a player can read for a step ("3 torch for you", "come to you", "answer: recipe of compass"). */
export function describeStep(s: Step, requester: string): string {
  const who = (r: string): string => (r === 'requester' ? 'you' : r === 'self' ? 'me' : r === requester ? 'you' : r)
  const items = (xs: ItemCount[], none: string): string =>
    xs.length ? xs.map((i) => `${i.count ?? 'all'} ${i.object}`).join(', ') : none
  switch (s.kind) {
    case 'obtain':
      return `${s.count} ${s.object}${s.for === 'self' ? '' : ` for ${who(s.for)}`}`
    case 'give':
      return `give ${items(s.items, 'everything but my tools')} to ${who(s.to)}`
    case 'answer':
      return `${s.question}${s.subject ? ` of ${s.subject}` : ''}`
    case 'move':
      return s.mode === 'goto'
        ? `go to ${s.place ?? `${s.x} ${s.y} ${s.z}`}`
        : `${s.mode} ${s.mode === 'come' ? 'to ' : ''}${who(s.player ?? 'requester')}`
    case 'store':
      return `${s.op} ${items(s.items, 'everything')}${s.chest ? ` (${s.chest})` : ''}`
    case 'build':
      return `build ${s.blueprint}${s.where ? ` ${s.where}` : ''}`
    case 'guard':
      return `guard ${who(s.player)}`
    case 'attack':
      return `attack ${s.mob}`
    case 'control':
      return s.op
  }
}
