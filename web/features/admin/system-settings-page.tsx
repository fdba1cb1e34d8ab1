import { SETTING_KEYS } from '@shared/contract/settings';
import { TERMS_SETTING_KEYS, TERMS_VERSION_RANGE } from '@shared/contract/terms';
import { SIGNUP_SETTING_KEY } from '@shared/contract/signup';
import { SUBMIT_BOX_SETTING_KEY } from '@shared/contract/submit-box';
import { FORM_EMBED_SETTING_KEYS } from '@shared/contract/form-embed';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@web/components/alert';
import { useSystemStatus } from './api/system-status';
import { perLanguageFields, SettingsForm, type SettingSection } from './settings-form';

/** Longest password or passphrase length a policy may ask for (the server's SecuPass range). */
const MAX_POLICY_LENGTH = 256;
/** zxcvbn scores. */
const STRENGTHS = [0, 1, 2, 3, 4] as const;

/** Administration › Platform › System: organisation, sign-in, password and passphrase policies, mail. */
export function SystemSettingsPage() {
  const { t } = useTranslation();
  const sections = useMemo<SettingSection[]>(() => {
    // Password and SecuPass policies have the same five rules, under their own keys.
    const RULES = ['requireUppercase', 'requireLowercase', 'requireDigit', 'requireSpecial'] as const;
    const policyFields = (keys: { minLength: string } & Record<(typeof RULES)[number], string>) => [
      { kind: 'integer' as const, key: keys.minLength, label: t('admin:system.policy.minLength'), unit: t('admin:settingsForm.units.characters'), min: 1, max: MAX_POLICY_LENGTH },
      ...RULES.map((rule) => ({ kind: 'switch' as const, key: keys[rule], label: t(`admin:system.policy.${rule}`) })),
    ];
    return [
      {
        id: 'organisation',
        title: t('admin:system.organisation.title'),
        fields: [{ kind: 'text', key: SETTING_KEYS.organisationName, label: t('admin:system.organisation.name'), hint: t('admin:system.organisation.nameHint') }],
      },
      {
        id: 'sign-in',
        title: t('admin:system.signIn.title'),
        fields: [
          { kind: 'switch', key: SIGNUP_SETTING_KEY, label: t('admin:system.signIn.signupEnabled'), hint: t('admin:system.signIn.signupEnabledHint') },
          { kind: 'switch', key: SETTING_KEYS.totpRequired, label: t('admin:system.signIn.totpRequired'), hint: t('admin:system.signIn.totpRequiredHint') },
          { kind: 'switch', key: SETTING_KEYS.loginDisclaimerEnabled, label: t('admin:system.signIn.disclaimerEnabled'), hint: t('admin:system.signIn.disclaimerEnabledHint') },
          ...perLanguageFields(t, SETTING_KEYS.loginDisclaimerText, t('admin:system.signIn.disclaimerText'), {
            multiline: true,
            visibleWhen: (draft) => draft[SETTING_KEYS.loginDisclaimerEnabled] === true,
          }),
        ],
      },
      {
        id: 'terms',
        title: t('admin:system.terms.title'),
        fields: [
          { kind: 'integer', key: TERMS_SETTING_KEYS.version, label: t('admin:system.terms.version'), hint: t('admin:system.terms.versionHint'), min: TERMS_VERSION_RANGE[0], max: TERMS_VERSION_RANGE[1] },
          ...perLanguageFields(t, TERMS_SETTING_KEYS.text, t('admin:system.terms.text'), { multiline: true, hint: t('admin:system.terms.textHint') }),
        ],
      },
      {
        id: 'password-policy',
        title: t('admin:system.passwordPolicy.title'),
        description: t('admin:system.passwordPolicy.description'),
        fields: [
          ...policyFields({
            minLength: SETTING_KEYS.passwordMinLength,
            requireUppercase: SETTING_KEYS.passwordRequireUppercase,
            requireLowercase: SETTING_KEYS.passwordRequireLowercase,
            requireDigit: SETTING_KEYS.passwordRequireDigit,
            requireSpecial: SETTING_KEYS.passwordRequireSpecial,
          }),
        ],
      },
      {
        id: 'secupass-policy',
        title: t('admin:system.secupassPolicy.title'),
        description: t('admin:system.secupassPolicy.description'),
        fields: [
          ...policyFields({
            minLength: SETTING_KEYS.secupassMinLength,
            requireUppercase: SETTING_KEYS.secupassRequireUppercase,
            requireLowercase: SETTING_KEYS.secupassRequireLowercase,
            requireDigit: SETTING_KEYS.secupassRequireDigit,
            requireSpecial: SETTING_KEYS.secupassRequireSpecial,
          }),
          {
            kind: 'choice',
            key: SETTING_KEYS.secupassMinStrength,
            label: t('admin:system.secupassPolicy.minStrength'),
            hint: t('admin:system.secupassPolicy.minStrengthHint'),
            options: STRENGTHS.map((score) => ({ value: score, label: t(`admin:system.secupassPolicy.strength${score}`) })),
          },
        ],
      },
      {
        id: 'mail',
        title: t('admin:system.mail.title'),
        fields: [
          {
            kind: 'choice',
            key: SETTING_KEYS.mailTransport,
            label: t('admin:system.mail.transport'),
            hint: t('admin:system.mail.transportHint'),
            options: [
              { value: 'mailbox', label: t('admin:system.mail.mailbox') },
              { value: 'smtp', label: t('admin:system.mail.smtp') },
            ],
          },
          {
            kind: 'text',
            key: SETTING_KEYS.mailSmtpUrl,
            label: t('admin:system.mail.smtpUrl'),
            hint: t('admin:system.mail.smtpUrlHint'),
            nullable: true,
            visibleWhen: (draft) => draft[SETTING_KEYS.mailTransport] === 'smtp',
          },
          { kind: 'text', key: SETTING_KEYS.mailFrom, label: t('admin:system.mail.from'), hint: t('admin:system.mail.fromHint'), inputType: 'email', nullable: true },
        ],
      },
      {
        id: 'submit-box',
        title: t('admin:system.submitBox.title'),
        fields: [{ kind: 'switch', key: SUBMIT_BOX_SETTING_KEY, label: t('admin:system.submitBox.enabled'), hint: t('admin:system.submitBox.enabledHint') }],
      },
      {
        id: 'form-embed',
        title: t('formsShare:embedSettings.title'),
        description: t('formsShare:embedSettings.description'),
        fields: [
          { kind: 'text', key: FORM_EMBED_SETTING_KEYS.frameAncestors, label: t('formsShare:embedSettings.frameAncestors'), hint: t('formsShare:embedSettings.frameAncestorsHint'), multiline: true },
          { kind: 'text', key: FORM_EMBED_SETTING_KEYS.corsOrigins, label: t('formsShare:embedSettings.corsOrigins'), hint: t('formsShare:embedSettings.corsOriginsHint'), multiline: true },
        ],
      },
    ];
  }, [t]);

  const status = useSystemStatus();
  const notice = status.data?.warnings.includes('mailboxNotLocal') ? (
    <Alert type="warning" title={t('admin:system.mailboxWarning.title')}>
      {t('admin:system.mailboxWarning.text')}
    </Alert>
  ) : null;
  return <SettingsForm title={t('admin:system.title')} intro={t('admin:system.intro')} notice={notice} sections={sections} />;
}
