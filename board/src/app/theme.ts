import { signal } from '@preact/signals';

export type Theme = 'system' | 'dark' | 'light';

/** The colour scheme: the person's preference `theme`, kept in this browser too so the page starts in it. */
export const theme = signal<Theme>((localStorage.getItem('dt.theme') as Theme | null) ?? 'system');

export function applyTheme(next: Theme): void {
  theme.value = next;
  localStorage.setItem('dt.theme', next);
  if (next === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = next;
}

export function nextTheme(current: Theme): Theme {
  return current === 'system' ? 'dark' : current === 'dark' ? 'light' : 'system';
}

applyTheme(theme.peek());
