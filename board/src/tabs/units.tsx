/** Placeholder until this tab is built (issue 16). */
export function UnitsTab() {
  return <section class="card"><h2>…</h2></section>;
}
