/** Placeholder: the alarm kiosk (issue 16). */
export function Kiosk() {
  return <p>Alarm</p>;
}
