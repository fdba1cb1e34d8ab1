import { SETTING_KEYS } from '@shared/contract/settings';
import type { SettingsStore } from '../settings/settings-store';
import type { MailRuntimeSettings } from './mailer';

/** The mailer's view of the settings the installation wizard writes (SMTP_URL still wins). */
export function mailSettingsFrom(settings: SettingsStore): () => Promise<MailRuntimeSettings> {
  return async () => {
    const all = await settings.getAll();
    const transport = all[SETTING_KEYS.mailTransport];
    const smtpUrl = all[SETTING_KEYS.mailSmtpUrl];
    const from = all[SETTING_KEYS.mailFrom];
    const organisationName = all[SETTING_KEYS.organisationName];
    return {
      transport: transport === 'smtp' ? 'smtp' : 'mailbox',
      smtpUrl: typeof smtpUrl === 'string' && smtpUrl !== '' ? smtpUrl : null,
      from: typeof from === 'string' && from !== '' ? from : null,
      organisationName: typeof organisationName === 'string' && organisationName.trim() !== '' ? organisationName.trim() : null,
    };
  };
}
