import { SecuPassSettingsSection } from '@web/features/secupass';
import { SettingsPage } from '@web/features/settings/settings-page';

/** /settings: the account settings page with the SecuPass section (SPEC §1). */
export function SettingsRoute() {
  return <SettingsPage sections={<SecuPassSettingsSection />} />;
}
