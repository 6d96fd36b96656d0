/** The time-clock panel as Discord message JSON (API v10 shape): an embed of who is on duty and the buttons. */

export type Language = 'de' | 'en';

export interface OnDutyLine { nickname: string; badge: string | null; rank: string | null; clockInAt: Date }

export const buttonIds = { clockIn: 'dt:clock:in', clockOut: 'dt:clock:out', login: 'dt:login' } as const;

const words = {
  de: { title: 'Stempeluhr', nobody: 'Niemand ist im Dienst.', onDuty: 'Im Dienst', since: 'seit', more: (n: number) => `… und ${n} weitere`, clockIn: 'Einstempeln', clockOut: 'Ausstempeln', login: 'Login', footer: 'Aktualisiert' },
  en: { title: 'Time clock', nobody: 'Nobody is on duty.', onDuty: 'On duty', since: 'since', more: (n: number) => `… and ${n} more`, clockIn: 'Clock in', clockOut: 'Clock out', login: 'Login', footer: 'Updated' },
};

/** Discord's limit for an embed description is 4096 characters; the list stops well before it. */
const MAX_DESCRIPTION = 3900;

export function panelMessage(guildName: string, people: OnDutyLine[], language: Language, now = new Date()) {
  const w = words[language];
  const lines: string[] = [];
  let length = 0;
  for (const [i, p] of people.entries()) {
    const line = `**${p.badge ?? '–'}** ${escapeMarkdown(p.nickname)}${p.rank ? ` · ${escapeMarkdown(p.rank)}` : ''} · ${w.since} <t:${Math.floor(p.clockInAt.getTime() / 1000)}:R>`;
    if (length + line.length + 40 > MAX_DESCRIPTION) {
      lines.push(w.more(people.length - i));
      break;
    }
    lines.push(line);
    length += line.length + 1;
  }
  return {
    content: '',
    embeds: [{
      title: `${w.title} · ${escapeMarkdown(guildName)}`.slice(0, 256),
      description: people.length ? lines.join('\n') : w.nobody,
      color: people.length ? 0x2e9d5b : 0x6b7280,
      fields: [{ name: w.onDuty, value: String(people.length), inline: true }],
      footer: { text: w.footer },
      timestamp: now.toISOString(),
    }],
    components: [{
      type: 1,
      components: [
        { type: 2, style: 3, custom_id: buttonIds.clockIn, label: w.clockIn },
        { type: 2, style: 4, custom_id: buttonIds.clockOut, label: w.clockOut },
        { type: 2, style: 2, custom_id: buttonIds.login, label: w.login },
      ],
    }],
    allowed_mentions: { parse: [] as string[] },
  };
}

/** Names are shown as written: Discord markdown in them is escaped. */
export function escapeMarkdown(text: string): string {
  return text.replace(/([\\*_~`|>#[\]()-])/g, '\\$1');
}
