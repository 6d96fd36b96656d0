/** Placeholder until this tab is built (issue 16). */
export function DispatchTab() {
  return <section class="card"><h2>…</h2></section>;
}
