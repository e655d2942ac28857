/** The need shared by every action that holds a tool while it works: the tool (when one is named) in the inventory. */
import type { Need } from './types.js'

export function toolNeed(tool: string | null, doing: string): Need[] {
  return tool ? [{ kind: 'hold', anyOf: [tool], doing, as: 'tool' }] : []
}
