/** Placeholder until this tab is built (issue 16). */
export function SettingsTab() {
  return <section class="card"><h2>…</h2></section>;
}
