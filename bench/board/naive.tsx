/**
 * The reference of `bench board`: the same view drawn the way a board without fine-grained state
 * would draw it: a plain Preact tree (no memo, no signals) rendered again from the whole state on
 * every delta. Preact's diff still touches only the DOM that differs; what it costs is rendering
 * and diffing every tile. Bundled by bench/lib/board-page.ts and mounted below the board; the probe
 * (probe.ts) calls `render()` after the board handled each delta and times it.
 */
import { render } from 'preact';
import type { CallEntry, UnitEntry } from '../../board/src/live/entries.ts';

interface Store<V> { keys: { peek(): readonly string[] }; peek(key: string): V | undefined }
interface Status { code: string; label: string; color: string }
type View = 'units' | 'calls';

const css = `
#bench-naive { padding: 12px; }
#bench-naive .n-grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(170px, 1fr)); gap: 8px; }
#bench-naive .n-tile { border: 2px solid var(--border, #444); border-radius: 6px; padding: 6px; }
#bench-naive .n-status { border-radius: 4px; padding: 2px 4px; margin: 4px 0; }
#bench-naive ul { margin: 0; padding-left: 16px; }
#bench-naive table { width: 100%; border-collapse: collapse; }
#bench-naive td { border-top: 1px solid var(--border, #444); padding: 2px 4px; }
`;

const minutes = (ms: number) => `${Math.max(0, Math.floor(ms / 60_000))} min`;
const clock = new Intl.DateTimeFormat('de', { hour: '2-digit', minute: '2-digit' });
const all = <V,>(store: Store<V>) => store.keys.peek().map((k) => store.peek(k)).filter((v): v is V => v !== undefined);

function UnitTile({ unit, status, now }: { unit: UnitEntry; status: Status | undefined; now: number }) {
  return (
    <article class="n-tile" style={{ borderColor: status?.color }}>
      <header><b>{unit.callsign}</b> <span class="n-code">{unit.status}</span></header>
      <p class="n-status" style={{ background: status?.color }}>{status?.label}</p>
      <div>{unit.label}</div><div>{unit.orgUnit}</div>
      <ul>{unit.members.map((m) => <li key={m.id}>{m.nickname}</li>)}</ul>
      <time>seit {clock.format(unit.since)} · {minutes(now - unit.since)}</time>
    </article>
  );
}

function Units({ units, statuses, now }: { units: UnitEntry[]; statuses: Map<string, Status>; now: number }) {
  const sorted = [...units].sort((a, b) => (a.callsign < b.callsign ? -1 : a.callsign > b.callsign ? 1 : 0));
  return <div class="n-grid">{sorted.map((u) => <UnitTile key={u.callsign} unit={u} status={statuses.get(u.status)} now={now} />)}</div>;
}

function where(location: CallEntry['location']): string {
  if (!location) return '';
  if (typeof location === 'string') return location;
  const xy = location.x !== undefined ? ` (${location.x}, ${location.y})` : '';
  return [location.text, location.street, location.postal].filter(Boolean).join(', ') + xy;
}

function CallRow({ call, now }: { call: CallEntry; now: number }) {
  return (
    <tr class={call.kind === 'panik' ? 'n-panic' : ''}>
      <td>{call.kind}</td><td>{call.priority}</td><td><b>{call.title}</b><br />{call.message}</td>
      <td>{where(call.location)}</td><td>{call.caller?.name} {call.caller?.phone}</td>
      <td>{call.reportCount}×</td><td>{minutes(now - call.createdAt)}</td>
    </tr>
  );
}

function Calls({ calls, now }: { calls: CallEntry[]; now: number }) {
  const sorted = calls.filter((c) => c.status === 'open')
    .sort((a, b) => Number(b.kind === 'panik') - Number(a.kind === 'panik') || a.priority - b.priority || a.createdAt - b.createdAt);
  return <table><tbody>{sorted.map((c) => <CallRow key={c.id} call={c} now={now} />)}</tbody></table>;
}

/** Mounts the reference view of `view` below the board; `render()` draws it again from the whole state. */
function mount(view: View, catalogue: Status[]) {
  const live = (window as unknown as { dtBoard: { live: { units: Store<UnitEntry>; calls: Store<CallEntry> } } }).dtBoard.live;
  const statuses = new Map(catalogue.map((s) => [s.code, s]));
  const root = document.createElement('section');
  root.id = 'bench-naive';
  const style = document.createElement('style');
  style.textContent = css;
  root.append(style);
  const host = document.createElement('div');
  root.append(host);
  document.body.append(root);
  const draw = () => render(view === 'units'
    ? <Units units={all(live.units)} statuses={statuses} now={Date.now()} />
    : <Calls calls={all(live.calls)} now={Date.now()} />, host);
  draw();
  return {
    root: host,
    render: draw,
    unmount() {
      render(null, host);
      root.remove();
    },
  };
}

(window as unknown as { benchNaive: { mount: typeof mount } }).benchNaive = { mount };
