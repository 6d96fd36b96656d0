/** Placeholder: the alarm banner (issue 16). */
export function AlarmBanner() {
  return null;
}
