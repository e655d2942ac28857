/**
 * Item-stack helpers for the window code (src/server/windows, plugins windows/crafting/furnace/chest): stacks are
 * flying-squid's own prismarine-item `Item` objects, treated as immutable values here — every change makes a new
 * Item, so a copy kept as "what the client believes" never aliases server state. Counts are coerced with Number()
 * because flying-squid's /give once stored them as strings. Also the network form (`toNotch`/`fromNotch`) of 1.20.2.
 */
import { createRequire } from 'node:module'
import type { SquidItem, SquidServer } from '../squid.js'

const require = createRequire(import.meta.url)

/** A stack as stored in slots: a prismarine-item Item (with name/stackSize from the registry) or null. */
export type Stack = SquidItem & { name: string; stackSize: number }

interface ItemStatics {
  new (type: number, count: number, metadata?: number, nbt?: unknown): Stack
  toNotch(item: Stack | null): Record<string, unknown>
  fromNotch(net: unknown): Stack | null
}

const classes = new WeakMap<object, ItemStatics>()

/** prismarine-item's Item class for the server's registry (the same class flying-squid uses). */
export function itemApi(serv: SquidServer): ItemStatics {
  let cls = classes.get(serv.registry)
  if (!cls) {
    cls = (require('prismarine-item') as (reg: unknown) => ItemStatics)(serv.registry)
    classes.set(serv.registry, cls)
  }
  return cls
}

export function countOf(s: Stack | null | undefined): number {
  return s ? Number(s.count) : 0
}

export function isEmpty(s: Stack | null | undefined): s is null | undefined {
  return !s || countOf(s) <= 0
}

function nbtKey(s: Stack): string {
  const nbt = s.nbt as { value?: Record<string, unknown> } | null | undefined
  return nbt?.value && Object.keys(nbt.value).length > 0 ? JSON.stringify(nbt) : ''
}

/** Same item and tags (vanilla `isSameItemSameTags`), ignoring the count. */
export function sameItem(a: Stack | null | undefined, b: Stack | null | undefined): boolean {
  if (isEmpty(a) || isEmpty(b)) return false
  return a.type === b.type && (a.metadata ?? 0) === (b.metadata ?? 0) && nbtKey(a) === nbtKey(b)
}

/** Same item, tags and count; two empties are equal. */
export function sameStack(a: Stack | null | undefined, b: Stack | null | undefined): boolean {
  if (isEmpty(a) || isEmpty(b)) return isEmpty(a) && isEmpty(b)
  return sameItem(a, b) && countOf(a) === countOf(b)
}

/** Max stack size of the item (registry value, 64 when unknown). */
export function maxStackOf(s: Stack): number {
  return typeof s.stackSize === 'number' && s.stackSize > 0 ? s.stackSize : 64
}

export class Stacks {
  readonly Item: ItemStatics
  constructor(readonly serv: SquidServer) {
    this.Item = itemApi(serv)
  }

  /** A new stack like `s` with `count` items (null when count <= 0). */
  withCount(s: Stack, count: number): Stack | null {
    if (count <= 0) return null
    return new this.Item(s.type, count, s.metadata ?? 0, s.nbt ?? undefined)
  }

  /** A copy that shares nothing with `s` (its tags too: a tool worn in place must differ from the client's copy). */
  copy(s: Stack | null | undefined): Stack | null {
    if (isEmpty(s)) return null
    return new this.Item(s.type, countOf(s), s.metadata ?? 0, s.nbt ? structuredClone(s.nbt) : undefined)
  }

  make(nameOrId: string | number, count: number): Stack | null {
    const id =
      typeof nameOrId === 'number' ? nameOrId : (this.serv.registry.itemsByName[nameOrId]?.id as number | undefined)
    if (id === undefined || count <= 0) return null
    return new this.Item(id, count)
  }

  toNet(s: Stack | null | undefined): Record<string, unknown> {
    return this.Item.toNotch(isEmpty(s) ? null : ({ ...s, count: countOf(s) } as Stack))
  }

  fromNet(net: unknown): Stack | null {
    const s = this.Item.fromNotch(net)
    return isEmpty(s) ? null : s
  }
}
