/**
 * Turns a request's text into a command call: the first word names a command (or alias); the rest is handed to the
 * command's zod args schema as `{ rest, words }`. Text that names no command is free text for the `ask` command when
 * one exists; a near miss of a command name gets a "did you mean" answer. A command that takes no arguments but is
 * followed by more words ("where are diamonds?") is a sentence, so it goes to `ask` too (unless addressed as `!word`).
 */
import { didYouMean } from '../util/text.js'
import type { CommandDefinition, RawArgs } from './command.js'

export type Parsed =
  | { kind: 'command'; def: CommandDefinition; raw: RawArgs }
  | { kind: 'unknown'; word: string; suggestions: string[] }
  | { kind: 'empty' }

export class CommandRegistry {
  private readonly byName = new Map<string, CommandDefinition>()
  constructor(readonly all: CommandDefinition[]) {
    for (const c of all)
      for (const n of [c.name, ...(c.aliases ?? [])]) {
        if (this.byName.has(n)) throw new Error(`command name ${n} is defined twice`)
        this.byName.set(n, c)
      }
  }
  get(name: string): CommandDefinition | undefined {
    return this.byName.get(name.toLowerCase())
  }
  names(): string[] {
    return this.all.map((c) => c.name)
  }
}

export function splitWords(text: string): string[] {
  return text.trim().split(/\s+/).filter(Boolean)
}

/**
 * @param strict true when the text was addressed as a command (`!word`), so an unknown first word is a typo rather
 *   than the start of a sentence.
 */
export function parseRequest(text: string, registry: CommandRegistry, strict: boolean): Parsed {
  const words = splitWords(text)
  if (words.length === 0) return { kind: 'empty' }
  const first = words[0]!.toLowerCase().replace(/[,:!?.]+$/, '')
  const def = registry.get(first)
  const ask = registry.get('ask')
  // "where are diamonds?", "stop what you're doing": a command that takes no words, followed by words, is a sentence
  if (def && !strict && ask && !def.usage && words.length > 1)
    return { kind: 'command', def: ask, raw: { rest: text.trim(), words } }
  if (def) {
    const rest = text.trim().slice(words[0]!.length).trim()
    return { kind: 'command', def, raw: { rest, words: words.slice(1) } }
  }
  const suggestions = didYouMean(first, registry.names())
  const looksLikeTypo = strict || (words.length === 1 && suggestions.length > 0)
  if (ask && !looksLikeTypo) return { kind: 'command', def: ask, raw: { rest: text.trim(), words } }
  return { kind: 'unknown', word: first, suggestions }
}
