import { LANGUAGES, MS_PER_DAY } from '@shared/contract/constants';
import { USER_QUOTA_SETTING_KEY } from '@shared/contract/storage-quotas';
import { DELIVERY_SETTING_KEYS } from '@shared/contract/deliveries';
import { EXTERNAL_SETTING_KEYS } from '@shared/contract/external';
import { SETTING_KEYS } from '@shared/contract/settings';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { perLanguageFields, SettingsForm, type SettingSection } from './settings-form';

const MIB = 1024 ** 2;
const LEVEL_KEYS = [SETTING_KEYS.allowSecurityLevel1, SETTING_KEYS.allowSecurityLevel2, SETTING_KEYS.allowSecurityLevel3, SETTING_KEYS.allowSecurityLevel4] as const;
/** The server's own bound of a delivery's validity (CreateDeliveryBody: at most 100 000 days). */
const MAX_VALIDITY_DAYS = 100_000;
/** Sizes in MiB up to 1 PiB: far beyond any disk, far below the largest exact number. */
const MAX_MIB = 1024 ** 3;

/** A banned recipient: a whole address or `@domain` (DELIVERY_SETTING_KEYS.bannedRecipients). */
const BANNED_RECIPIENT = /^[^\s@,]*@[^\s@,]+\.[^\s@,]+$/;
/** An extension without the dot: letters, digits and the usual joiners. */
const EXTENSION = /^[A-Za-z0-9_+-]+$/;
/** A MIME type or `type/*`. */
const MIME_TYPE = /^[A-Za-z0-9!#$&^_.+-]+\/(\*|[A-Za-z0-9!#$&^_.+-]+)$/;

/** Administration › Secure mails › General: the delivery and send settings (SPEC §3, §5, §9). */
export function SecureMailsSettingsPage() {
  const { t } = useTranslation();
  const sections = useMemo<SettingSection[]>(() => {
    const cleanupOn = (draft: Record<string, string | boolean>) => draft[SETTING_KEYS.deliveryCleanupEnabled] === true;
    const disclaimerOn = (draft: Record<string, string | boolean>) => draft[EXTERNAL_SETTING_KEYS.downloadDisclaimerEnabled] === true;
    return [
      {
        id: 'levels',
        title: t('admin:secureMails.levels.title'),
        description: t('admin:secureMails.levels.description'),
        fields: LEVEL_KEYS.map((key, index) => ({ kind: 'switch' as const, key, label: t(`admin:secureMails.levels.level${index + 1}`) })),
      },
      {
        id: 'validity',
        title: t('admin:secureMails.validity.title'),
        description: t('admin:secureMails.validity.description'),
        fields: [
          { kind: 'switch', key: SETTING_KEYS.deliveryCleanupEnabled, label: t('admin:secureMails.validity.cleanupEnabled'), hint: t('admin:secureMails.validity.cleanupEnabledHint') },
          {
            kind: 'switch',
            key: SETTING_KEYS.deliveryCleanupCustomExpiration,
            label: t('admin:secureMails.validity.customExpiration'),
            hint: t('admin:secureMails.validity.customExpirationHint'),
            visibleWhen: cleanupOn,
          },
          {
            kind: 'integer',
            key: SETTING_KEYS.deliveryCleanupExpirationMin,
            label: t('admin:secureMails.validity.min'),
            unit: t('admin:settingsForm.units.days'),
            scale: MS_PER_DAY,
            min: 1,
            max: MAX_VALIDITY_DAYS,
            visibleWhen: cleanupOn,
          },
          {
            kind: 'integer',
            key: SETTING_KEYS.deliveryCleanupExpirationMax,
            label: t('admin:secureMails.validity.max'),
            unit: t('admin:settingsForm.units.days'),
            scale: MS_PER_DAY,
            min: 1,
            max: MAX_VALIDITY_DAYS,
            visibleWhen: cleanupOn,
          },
        ],
      },
      {
        id: 'limits',
        title: t('admin:secureMails.limits.title'),
        fields: [
          {
            kind: 'integer',
            key: DELIVERY_SETTING_KEYS.maxUploadSize,
            label: t('admin:secureMails.limits.maxUploadSize'),
            hint: t('admin:secureMails.limits.maxUploadSizeHint'),
            unit: t('admin:settingsForm.units.mib'),
            scale: MIB,
            min: 1,
            max: MAX_MIB,
          },
          {
            kind: 'integer',
            key: DELIVERY_SETTING_KEYS.globalQuota,
            label: t('admin:secureMails.limits.globalQuota'),
            hint: t('admin:secureMails.limits.globalQuotaHint'),
            unit: t('admin:settingsForm.units.mib'),
            scale: MIB,
            min: 0,
            max: MAX_MIB,
          },
          {
            kind: 'integer',
            key: USER_QUOTA_SETTING_KEY,
            label: t('admin:secureMails.limits.userQuota'),
            hint: t('admin:secureMails.limits.userQuotaHint'),
            unit: t('admin:settingsForm.units.mib'),
            scale: MIB,
            min: 0,
            max: MAX_MIB,
          },
        ],
      },
      {
        id: 'files',
        title: t('admin:secureMails.files.title'),
        description: t('admin:secureMails.files.description'),
        fields: [
          {
            kind: 'list',
            key: DELIVERY_SETTING_KEYS.blockedExtensions,
            label: t('admin:secureMails.files.extensions'),
            hint: t('admin:secureMails.files.extensionsHint'),
            lineProblem: (line) => (EXTENSION.test(line) ? undefined : t('admin:secureMails.files.extensionInvalid', { entry: line })),
          },
          {
            kind: 'list',
            key: DELIVERY_SETTING_KEYS.blockedMimeTypes,
            label: t('admin:secureMails.files.mimeTypes'),
            hint: t('admin:secureMails.files.mimeTypesHint'),
            lineProblem: (line) => (MIME_TYPE.test(line) ? undefined : t('admin:secureMails.files.mimeTypeInvalid', { entry: line })),
          },
        ],
      },
      {
        id: 'recipients',
        title: t('admin:secureMails.recipients.title'),
        fields: [
          {
            kind: 'list',
            key: DELIVERY_SETTING_KEYS.bannedRecipients,
            label: t('admin:secureMails.recipients.banned'),
            hint: t('admin:secureMails.recipients.bannedHint'),
            lineProblem: (line) => (BANNED_RECIPIENT.test(line) ? undefined : t('admin:secureMails.recipients.bannedInvalid', { entry: line })),
          },
          {
            kind: 'switch',
            key: EXTERNAL_SETTING_KEYS.signupRequiresSms,
            label: t('admin:secureMails.recipients.signupRequiresSms'),
            hint: t('admin:secureMails.recipients.signupRequiresSmsHint'),
          },
          {
            kind: 'switch',
            key: DELIVERY_SETTING_KEYS.inviteRequiresRole,
            label: t('admin:secureMails.recipients.inviteRequiresRole'),
            hint: t('admin:secureMails.recipients.inviteRequiresRoleHint'),
          },
        ],
      },
      {
        id: 'disclaimer',
        title: t('admin:secureMails.disclaimer.title'),
        description: t('admin:secureMails.disclaimer.description'),
        fields: [
          { kind: 'switch', key: EXTERNAL_SETTING_KEYS.downloadDisclaimerEnabled, label: t('admin:secureMails.disclaimer.enabled') },
          ...perLanguageFields(t, EXTERNAL_SETTING_KEYS.downloadDisclaimerText, t('admin:secureMails.disclaimer.text'), { multiline: true, visibleWhen: disclaimerOn }),
        ],
      },
    ];
  }, [t]);

  return (
    <SettingsForm
      title={t('admin:secureMails.title')}
      intro={t('admin:secureMails.intro')}
      sections={sections}
      validate={(draft): Record<string, string> => ({
        // "None allowed" would close sending; the server keeps it possible, the form asks for one.
        ...(LEVEL_KEYS.some((key) => draft[key] === true) ? {} : { [LEVEL_KEYS[0]]: t('admin:secureMails.levels.atLeastOne') }),
        // The server refuses the disclaimer on with every text empty (at the switch, too).
        ...(draft[EXTERNAL_SETTING_KEYS.downloadDisclaimerEnabled] === true &&
        LANGUAGES.every((language) => String(draft[`${EXTERNAL_SETTING_KEYS.downloadDisclaimerText}.${language}`] ?? '').trim() === '')
          ? { [EXTERNAL_SETTING_KEYS.downloadDisclaimerEnabled]: t('admin:secureMails.disclaimer.textRequired') }
          : {}),
      })}
    />
  );
}
