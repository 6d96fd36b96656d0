import './settings/settings.css';
import { Aao } from './settings/aao.tsx';
import { ApiKeys } from './settings/api-keys.tsx';
import { BrandingCard } from './settings/branding.tsx';
import { DiscordCard } from './settings/discord.tsx';
import { MapSettingsCard } from './settings/map-settings.tsx';
import { Modules } from './settings/modules.tsx';
import { RateLimit } from './settings/rate-limit.tsx';
import { Statuses } from './settings/statuses.tsx';

/**
 * Einstellungen (guild admins and `settings.manage`; the registry hides the tab from others and the
 * server refuses them anyway): API keys, name, colours and icon, Discord (bot and invite), module switches, the status catalogue, the call rate limit, the AAO, the map (image, calibration, postal codes).
 * Every action says in place what it did, or the server's own message.
 */
export function SettingsTab() {
  return (
    <div class="grid settings">
      <ApiKeys />
      <Statuses />
      <div class="settings-side">
        <BrandingCard />
        <DiscordCard />
        <Modules />
        <RateLimit />
      </div>
      <Aao />
      <MapSettingsCard />
    </div>
  );
}
