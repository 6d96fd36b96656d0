import { SetupWizard } from './wizard.tsx';

/** Einrichtung (settings.manage): the onboarding wizard; the board opens here for a new guild (state.ts). */
export function SetupTab() {
  return <SetupWizard />;
}
