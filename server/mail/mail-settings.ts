import { CONFIG_KEYS } from '@shared/contract/config';
import { SETTING_KEYS } from '@shared/contract/settings';
import type { SettingsStore } from '../settings/settings-store';
import type { MailRuntimeSettings } from './mailer';

/** The mailer's view of the settings the installation wizard writes (SMTP_URL still wins). */
export function mailSettingsFrom(
  settings: SettingsStore,
  /** The uploaded logo (server/theme), or null for the product's. */
  loadLogo: () => Promise<{ bytes: Uint8Array; contentType: string } | null> = async () => null,
): () => Promise<MailRuntimeSettings> {
  return async () => {
    const all = await settings.getAll();
    const transport = all[SETTING_KEYS.mailTransport];
    const smtpUrl = all[SETTING_KEYS.mailSmtpUrl];
    const from = all[SETTING_KEYS.mailFrom];
    const organisationName = all[SETTING_KEYS.organisationName];
    const themeColor = all[CONFIG_KEYS.themeColor];
    const logo = await loadLogo();
    return {
      transport: transport === 'smtp' ? 'smtp' : 'mailbox',
      smtpUrl: typeof smtpUrl === 'string' && smtpUrl !== '' ? smtpUrl : null,
      from: typeof from === 'string' && from !== '' ? from : null,
      organisationName: typeof organisationName === 'string' && organisationName.trim() !== '' ? organisationName.trim() : null,
      themeColor: typeof themeColor === 'string' ? themeColor : null,
      // Mail clients do not show SVG images: an SVG logo leaves the organisation's name in the bar.
      logo: logo && logo.contentType !== 'image/svg+xml' ? logo : null,
    };
  };
}
