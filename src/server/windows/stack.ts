/**
 * Item-stack helpers for the window code (src/server/windows, plugins windows/crafting/furnace/chest): stacks are
 * flying-squid's own prismarine-item `Item` objects, treated as immutable values here — every change makes a new
 * Item, so a copy kept as "what the client believes" never aliases server state. Counts are coerced with Number()
 * because flying-squid's /give once stored them as strings. Also the network form (`toNotch`/`fromNotch`) and a
 * stack's damage in the form of its version (`setDamage`: an NBT tag, or from 1.20.5 a data component).
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

/** prismarine-item's data components of a ≥1.20.5 item (the form those versions send instead of NBT tags). */
interface Component {
  type: string
  data: unknown
}
type WithComponents = Stack & { components?: Component[]; componentMap?: Map<string, Component> }

function nbtKey(s: Stack): string {
  const nbt = s.nbt as { value?: Record<string, unknown> } | null | undefined
  const tags = nbt?.value && Object.keys(nbt.value).length > 0 ? JSON.stringify(nbt) : ''
  const components = (s as WithComponents).components
  return components?.length ? `${tags}|${JSON.stringify(components)}` : tags
}

/** Give `to` copies of `from`'s data components (none before 1.20.5). */
function carryComponents(from: Stack, to: Stack): Stack {
  const f = from as WithComponents
  const t = to as WithComponents
  if (f.components?.length && t.componentMap) {
    t.components = structuredClone(f.components)
    for (const c of t.components) t.componentMap.set(c.type, c)
  }
  return to
}

/**
 * Set a stack's used uses in the form its version sends: the NBT `Damage` tag up to 1.20.4, the `damage` data
 * component from 1.20.5 (prismarine-item's own setter writes only the tag, which those versions never send: a client
 * saw every tool unworn until it broke).
 */
export function setDamage(s: Stack, used: number): void {
  ;(s as Stack & { durabilityUsed: number }).durabilityUsed = used
  const c = s as WithComponents
  if (!c.components || !c.componentMap) return
  const damage = { type: 'damage', data: used }
  c.components = [...c.components.filter((x) => x.type !== 'damage'), damage]
  c.componentMap.set('damage', damage)
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
    return carryComponents(s, new this.Item(s.type, count, s.metadata ?? 0, s.nbt ?? undefined))
  }

  /** A copy that shares nothing with `s` (its tags too: a tool worn in place must differ from the client's copy). */
  copy(s: Stack | null | undefined): Stack | null {
    if (isEmpty(s)) return null
    return carryComponents(
      s,
      new this.Item(s.type, countOf(s), s.metadata ?? 0, s.nbt ? structuredClone(s.nbt) : undefined),
    )
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
