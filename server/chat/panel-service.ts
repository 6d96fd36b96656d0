import type { REST } from '@discordjs/rest';
import type { Log } from '../core/log.ts';
import type { Database } from '../store/db.ts';
import { guildById } from '../domains/guilds/store.ts';
import { onDutyPeople } from '../domains/timeclock/store.ts';
import { isGone } from './discord-rest.ts';
import { panelMessage, type Language } from './panel-view.ts';
import * as store from './store.ts';

/** Posts a guild's time-clock panel and edits it in place; used only by the node holding the gateway. */
export function createPanelService(db: Database, rest: REST, log: Log) {
  const body = async (guildId: string, language: Language) => {
    const [guild, people] = await Promise.all([guildById(db.sql, guildId), onDutyPeople(db.sql, guildId)]);
    return panelMessage(guild?.name ?? guildId, people, language);
  };

  return {
    /** Posts the panel in `channelId` and makes it the guild's panel; the one it replaces is deleted. */
    async post(guildId: string, channelId: string, language: Language, postedBy: string): Promise<void> {
      const message = await rest.post(`/channels/${channelId}/messages`, { body: await body(guildId, language) }) as { id: string };
      const old = await store.savePanel(db.sql, guildId, { channelId, messageId: message.id, language }, postedBy);
      if (old && old.messageId !== message.id) {
        await rest.delete(`/channels/${old.channelId}/messages/${old.messageId}`).catch((err) => {
          if (!isGone(err)) log.info('could not delete the replaced time-clock panel', { guildId, error: String(err) });
        });
      }
    },

    /**
     * Edits the guild's panel to the state of this moment. A panel deleted in Discord is forgotten
     * (`/panel` posts a new one); any other failure throws, and the scheduler retries.
     */
    async render(guildId: string): Promise<void> {
      const panel = await store.panelOf(db.sql, guildId);
      if (!panel) return;
      try {
        await rest.patch(`/channels/${panel.channelId}/messages/${panel.messageId}`, { body: await body(guildId, panel.language) });
      } catch (err) {
        if (!isGone(err)) throw err;
        await store.forgetPanel(db.sql, guildId, panel.messageId);
        log.info('time-clock panel was deleted in Discord; /panel posts a new one', { guildId });
      }
    },
  };
}
export type PanelService = ReturnType<typeof createPanelService>;
