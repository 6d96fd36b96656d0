import { effect } from '@preact/signals';
import type { Topic } from '../../../client-sdk/live.ts';
import { api } from './api.ts';
import { access, guild, reloadAccess } from './session.ts';
import { applyBranding, type ShownBranding } from './branding-apply.ts';
import { onNotice, onSnapshot, startLive, stopLive, watching } from '../live/board-live.ts';

let liveGuild: string | null = null;

/**
 * Keeps one `live.watch` subscription for the open guild, on the topics the server says this
 * person may watch (`live.topics`); asks again whenever their access changes, and subscribes
 * anew only when the answer differs.
 */
export function linkLive(): void {
  effect(() => {
    const g = guild.value;
    const a = access.value;
    if (!g) {
      liveGuild = null;
      stopLive();
      return;
    }
    if (!a) return;
    void api.live.topics.query().then(({ topics }) => {
      if (guild.peek()?.guildId !== g.guildId) return;
      const same = liveGuild === g.guildId && sameTopics(topics, watching.peek());
      if (same) return;
      liveGuild = g.guildId;
      startLive(g.guildId, topics);
    }).catch(() => {});
  });
  // A rank, a personnel sheet or a module switch changed: rights may have changed.
  onNotice('access', (ops) => {
    // a branding change saved on another board: shown here at once (name, accent, icon, tab order)
    const changed = (ops as { op: string; value?: unknown }[]).find((op) => op.op === 'branding');
    if (changed?.value) applyBranding(changed.value as ShownBranding);
    void reloadAccess();
  });
  onNotice('settings', () => void reloadAccess());
  onSnapshot(() => void reloadAccess());
}

function sameTopics(a: readonly Topic[], b: readonly Topic[]): boolean {
  return a.length === b.length && a.every((t) => b.includes(t));
}
