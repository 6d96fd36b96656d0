import { useState } from 'preact/hooks';
import { api } from '../../app/api.ts';
import { lang } from '../../app/i18n.ts';
import { guild } from '../../app/session.ts';
import type { Out } from '../../app/types.ts';
import { Result, useAction } from '../../ui/action.tsx';
import { ShownOnce } from '../../ui/shown-once.tsx';
import { ChartImg } from './chart-img.tsx';
import { useLoad } from './load.ts';
import { chartNames, describeParams, linkText, type ChartName } from './link-words.ts';
import { filterInput, limit, openPerson, periodInput } from './state.ts';

export type CreatedLink = Out['stats']['createChartLink'];

/**
 * A new public link: which chart (for a person's charts, whose), a label and the colours; the
 * period and filters are those chosen above, shown as the link will keep them (a period without
 * a date follows the clock: "Woche, immer aktuell").
 */
export function LinkForm({ onCreated }: { onCreated: (link: CreatedLink) => void }) {
  const t = linkText();
  const [chart, setChart] = useState<ChartName>('leaderboard/bars');
  const [userId, setUserId] = useState(openPerson.peek() ?? '');
  const [label, setLabel] = useState('');
  const [theme, setTheme] = useState<'dark' | 'light'>('dark');
  const action = useAction();
  const personal = chart.startsWith('user/');
  // bars and shares show the first people, legibly at most 25 (the trend sums everyone)
  const people = chart === 'leaderboard/bars' || chart === 'leaderboard/share' ? { limit: Math.min(limit.value, 25) } : {};
  // a link keeps the language it was made in (the board's): its image is drawn in it on every fetch
  const params = { ...periodInput.value, ...(personal ? { userId } : { ...filterInput.value, ...people }), theme, lang: lang.value };
  const create = (e: Event) => {
    e.preventDefault();
    if (personal && !userId) return void action.run(() => Promise.reject(new Error(t.needPerson)));
    void action.run(() => api.stats.createChartLink.mutate({ chart, label: label.trim() || undefined, ...params }), (link) => {
      onCreated(link);
      setLabel('');
      return t.created;
    });
  };
  return (
    <form class="link-form" id="link-form" onSubmit={create}>
      <h3>{t.newLink}</h3>
      <div class="link-fields">
        <label>{t.chart}
          <select id="link-chart" value={chart} onChange={(e) => setChart((e.target as HTMLSelectElement).value as ChartName)}>
            {chartNames.map((c) => <option value={c}>{t.charts[c]}</option>)}
          </select>
        </label>
        {personal && <PersonPick value={userId} onChange={setUserId} />}
        <label class="grow">{t.label}
          <input id="link-label" maxLength={100} placeholder={t.labelHint} value={label} onInput={(e) => setLabel((e.target as HTMLInputElement).value)} />
        </label>
        <label>{t.colours}
          <select id="link-theme" value={theme} onChange={(e) => setTheme((e.target as HTMLSelectElement).value as 'dark' | 'light')}>
            <option value="dark">{t.dark}</option><option value="light">{t.light}</option>
          </select>
        </label>
      </div>
      <p class="muted link-uses">{t.uses} <b id="link-params">{describeParams(params)}</b></p>
      {(!personal || userId) && (
        <div class="link-preview">
          <span class="muted">{t.preview}</span>
          <ChartImg id="link-preview" path={personal ? `stats/user/${encodeURIComponent(userId)}/chart/${chart.slice(5)}.png` : `stats/leaderboard/chart/${chart.slice(12)}.png`}
            params={personal ? periodInput.value : { ...periodInput.value, ...filterInput.value, ...people }} theme={theme}
            aspect={chart === 'leaderboard/share' ? 4 / 3 : 16 / 9} alt={t.charts[chart]} />
        </div>
      )}
      <button type="submit" class="primary" id="link-create" disabled={action.busy}>{t.create}</button>
      <Result id="link-result" action={action} />
    </form>
  );
}

/** Everyone with duty time at all, most first (the all-time leaderboard): the people a chart can be about. */
function PersonPick({ value, onChange }: { value: string; onChange: (userId: string) => void }) {
  const t = linkText();
  const people = useLoad<Out['stats']['leaderboard']>(`people:${guild.value?.guildId}`, () => api.stats.leaderboard.query({ period: 'alltime', limit: 500 }));
  const rows = people.data?.rows ?? [];
  return (
    <label>{t.person}
      <select id="link-person" value={value} onChange={(e) => onChange((e.target as HTMLSelectElement).value)}>
        <option value="">{rows.length || !people.data ? t.choosePerson : t.noPeople}</option>
        {rows.map((r) => <option value={r.userId}>{r.badgeNumber ? `${r.badgeNumber} · ${r.nickname}` : r.nickname}</option>)}
      </select>
    </label>
  );
}

/** The one sight of a new link's URL. */
export function CreatedLinkBox({ link, onDone }: { link: CreatedLink; onDone: () => void }) {
  const t = linkText();
  return (
    <ShownOnce value={link.url} id={link.id} title={t.createdTitle(link.label)} warning={t.once} class="created-link" onDone={onDone}
      words={{ label: t.url, copy: t.copy, copied: t.copied, copyFailed: t.copyFailed, done: t.done }}
      ids={{ box: 'created-link-box', field: 'created-link-url', copy: 'copy-link', result: 'copy-link-result', done: 'created-link-done' }} />
  );
}
