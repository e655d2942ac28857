/**
 * Real player chat: stock flying-squid sends every chat line as system text ("<Alice> hi"), which any player can
 * imitate by typing it. This plugin sends public chat (and, through `sendPlayerChat`, the whispers of tell.ts) as
 * vanilla `player_chat` packets carrying the sender's UUID and a chat type (chat, msg_command_incoming/outgoing),
 * so clients — our bot included — learn who spoke from the packet, not from the text. Messages are unsigned (the
 * practice server runs offline), which vanilla clients and mineflayer accept. Enabled where the packet shape is
 * known (1.19.3 and newer; from 1.21 the chat type is a registry holder); on other versions chat stays system text.
 */
import type { SquidPlayer, SquidPlugin, SquidServer } from '../squid.js'

export type ChatTypeName = 'chat' | 'msg_command_incoming' | 'msg_command_outgoing'
/** Vanilla's built-in chat type registry order (the same in every version this plugin enables). */
const VANILLA_IDS: Record<ChatTypeName, number> = { chat: 0, msg_command_incoming: 2, msg_command_outgoing: 3 }

/** True when the server can send `player_chat` packets of the shape written below. */
export function playerChatSupported(serv: SquidServer): boolean {
  return serv.supportFeature('useChatSessions') && !serv.supportFeature('incrementedChatType')
}

/** The chat type's id from the login codec the clients received (falls back to vanilla's order). */
function chatTypeId(serv: SquidServer, name: ChatTypeName): number {
  const codec = serv.registry.loginPacket?.dimensionCodec as { value?: Record<string, unknown> } | undefined
  const list = (
    codec?.value?.['minecraft:chat_type'] as { value?: { value?: { value?: { value?: unknown[] } } } } | undefined
  )?.value?.value?.value?.value
  if (Array.isArray(list)) {
    for (const e of list as Array<{ name?: { value?: string }; id?: { value?: number } }>) {
      if (e.name?.value === `minecraft:${name}` && typeof e.id?.value === 'number') return e.id.value
    }
  }
  return VANILLA_IDS[name]
}

const nameComponent = (serv: SquidServer, name: string): unknown =>
  (serv._createNetworkEncodedChatComponent as (v: unknown) => unknown)({ text: name })

/** Send one player-chat packet to `to`: `from` said `text` (as public chat, or a whisper to/from `target`). */
export function sendPlayerChat(
  serv: SquidServer,
  to: SquidPlayer,
  from: SquidPlayer,
  text: string,
  type: ChatTypeName,
  target?: string,
): void {
  to._client.write('player_chat', {
    senderUuid: from.uuid,
    index: 0,
    signature: undefined,
    plainMessage: text,
    timestamp: BigInt(Date.now()),
    salt: 0n,
    previousMessages: [],
    unsignedChatContent: undefined,
    filterType: 0,
    filterTypeMask: undefined,
    // 1.21+: the chat type is a registry holder ({ chatType: id }), before that a plain registry index.
    type: serv.supportFeature('chatTypeIsHolder') ? { chatType: chatTypeId(serv, type) } : chatTypeId(serv, type),
    networkName: nameComponent(serv, from.username),
    networkTargetName: target === undefined ? undefined : nameComponent(serv, target),
  })
}

interface ChatBehaviour {
  text: string
  whitelist: SquidPlayer[] | SquidPlayer
  blacklist: SquidPlayer[]
}

const plugin: SquidPlugin = {
  name: 'player-chat',
  player(player, serv) {
    if (!playerChatSupported(serv)) return
    // Runs before flying-squid's own handler: cancel it (hidden from other plugins) and send real player chat.
    player.on('chat_cancel', (data: ChatBehaviour, cancel: (triggerCancel?: boolean, hide?: boolean) => void) => {
      cancel(false, true)
      const to = Array.isArray(data.whitelist) ? data.whitelist : [data.whitelist]
      for (const p of to) if (!data.blacklist.includes(p)) sendPlayerChat(serv, p, player, data.text, 'chat')
    })
  },
}
export default plugin
