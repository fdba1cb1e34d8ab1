import { Button, Card, CardHeader, Field, Input, makeStyles, Spinner, Subtitle2, Text, tokens } from '@fluentui/react-components';
import { ArrowResetRegular, DeleteRegular, ImageAddRegular } from '@fluentui/react-icons';
import { CONFIG_KEYS, type ConfigValue } from '@shared/contract/config';
import { THEME_ASSET_MAX_BYTES, THEME_ASSET_PATHS, THEME_ASSET_TYPES, THEME_PROFILE_KEYS, THEME_SETTING_KEYS, type ThemeAsset } from '@shared/contract/theme';
import { buttonTextColor, isHexColor, luminance, parseHexColor, toHex } from '@shared/theme/theme-rules';
import { Alert } from '@web/components/alert';
import { PageHeading } from '@web/components/page-heading';
import { configString, reloadConfig, useConfigState } from '@web/lib/config-store';
import { useNotify } from '@web/lib/toasts';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { saveAdminSettings, useAdminSettings } from './api/settings';
import { removeThemeAsset, resetTheme, uploadThemeAsset, useThemeOverview } from './api/theme';
import { ThemePreview } from './theme-preview';
import { ConfirmDialog, type ConfirmRequest } from './user-dialogs';

const useStyles = makeStyles({
  layout: { display: 'grid', gap: '16px', gridTemplateColumns: 'minmax(0, 1fr)', '@media (min-width: 1024px)': { gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr)' } },
  column: { display: 'grid', gap: '16px', alignContent: 'start' },
  fields: { display: 'grid', gap: '12px' },
  swatch: { width: '28px', height: '22px', padding: 0, border: `1px solid ${tokens.colorNeutralStroke1}`, borderRadius: tokens.borderRadiusSmall, cursor: 'pointer', background: 'none' },
  asset: { display: 'flex', gap: '12px', alignItems: 'center', flexWrap: 'wrap' },
  assetImage: { height: '48px', maxWidth: '160px', objectFit: 'contain', border: `1px solid ${tokens.colorNeutralStroke2}`, padding: '4px', background: tokens.colorNeutralBackground1 },
  hidden: { display: 'none' },
  actions: { display: 'flex', gap: '8px', flexWrap: 'wrap' },
  muted: { margin: 0, color: tokens.colorNeutralForeground2 },
});

/** The colour settings the page edits, in display order, with their label keys. */
const COLOUR_FIELDS = [
  { key: CONFIG_KEYS.themeColor, id: 'theme' },
  { key: CONFIG_KEYS.themeHoverColor, id: 'themeHover' },
  { key: CONFIG_KEYS.tableRowColor, id: 'tableRow' },
  { key: CONFIG_KEYS.tableRowHoverColor, id: 'tableRowHover' },
] as const;

type Draft = Record<(typeof THEME_SETTING_KEYS)[number], string>;

const draftOf = (settings: Record<string, ConfigValue>): Draft =>
  Object.fromEntries(THEME_SETTING_KEYS.map((key) => [key, typeof settings[key] === 'string' ? settings[key] : ''])) as Draft;

/** `#RRGGBB` for a valid colour (SPEC §5), else null. */
const normalised = (value: string): string | null => (isHexColor(value) ? toHex(parseHexColor(value)) : null);

/**
 * Administration › Theme (issue 17 §2): web UI title, the four theme colours with the hex check
 * and the luminance rule, logo and favicon, a live preview of the shell, reset to the defaults.
 * Title and colours are settings (PUT /admin/settings); the images are PUT /admin/theme/{asset}.
 */
export function ThemePage() {
  const { t } = useTranslation();
  const styles = useStyles();
  const notify = useNotify();
  const settings = useAdminSettings();
  const assets = useThemeOverview();
  const { config } = useConfigState();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [saving, setSaving] = useState(false);
  const [confirming, setConfirming] = useState<ConfirmRequest | null>(null);
  const stored = settings.data?.settings;

  useEffect(() => {
    if (stored) setDraft(draftOf(stored));
  }, [stored]);

  if (settings.error) return <Alert type="error">{t('admin:theme.loadError')}</Alert>;
  if (!draft || !stored) return <Spinner label={t('common:loading')} />;

  const problems = Object.fromEntries(COLOUR_FIELDS.map(({ key }) => [key, normalised(draft[key]) === null]));
  const valid = !Object.values(problems).some(Boolean) && draft[CONFIG_KEYS.webUiTitle].trim() !== '';
  const colour = (key: string, fallback: string) => normalised(draft[key as keyof Draft]) ?? fallback;
  const previewColours = {
    theme: colour(CONFIG_KEYS.themeColor, String(stored[CONFIG_KEYS.themeColor])),
    themeHover: colour(CONFIG_KEYS.themeHoverColor, String(stored[CONFIG_KEYS.themeHoverColor])),
    tableRow: colour(CONFIG_KEYS.tableRowColor, String(stored[CONFIG_KEYS.tableRowColor])),
    tableRowHover: colour(CONFIG_KEYS.tableRowHoverColor, String(stored[CONFIG_KEYS.tableRowHoverColor])),
  };
  const changed = THEME_SETTING_KEYS.some((key) => draft[key] !== stored[key]);

  async function afterChange() {
    await Promise.all([settings.mutate(), assets.mutate(), reloadConfig()]);
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!valid || !draft) return;
    setSaving(true);
    try {
      const changes: Record<string, ConfigValue> = { [CONFIG_KEYS.webUiTitle]: draft[CONFIG_KEYS.webUiTitle].trim() };
      for (const { key } of COLOUR_FIELDS) changes[key] = normalised(draft[key]);
      await saveAdminSettings(changes);
      await afterChange();
      notify('success', t('admin:theme.saved'));
    } catch {
      notify('error', t('admin:theme.saveFailed'));
    } finally {
      setSaving(false);
    }
  }

  const askReset = () =>
    setConfirming({
      title: t('admin:theme.reset.title'),
      intro: t('admin:theme.reset.intro'),
      consequences: [t('admin:theme.reset.colours'), t('admin:theme.reset.images')],
      confirmLabel: t('admin:theme.reset.confirm'),
      run: async () => void (await resetTheme()),
      done: t('admin:theme.reset.done'),
      failed: t('admin:theme.reset.failed'),
    });

  return (
    <>
      <PageHeading focusOnMount>{t('admin:theme.title')}</PageHeading>
      <Text as="p" className={styles.muted} style={{ marginBottom: 16 }}>
        {t('admin:theme.intro')}
      </Text>
      <div className={styles.layout}>
        <div className={styles.column}>
          <Card>
            <CardHeader header={<Subtitle2 as="h2">{t('admin:theme.coloursTitle')}</Subtitle2>} />
            <form className={styles.fields} onSubmit={(e) => void save(e)} noValidate>
              <Field label={t('admin:theme.webUiTitle')} hint={t('admin:theme.webUiTitleHint')} required validationMessage={draft[CONFIG_KEYS.webUiTitle].trim() === '' ? t('admin:theme.titleRequired') : undefined}>
                <Input value={draft[CONFIG_KEYS.webUiTitle]} maxLength={100} onChange={(_e, data) => setDraft({ ...draft, [CONFIG_KEYS.webUiTitle]: data.value })} />
              </Field>
              {COLOUR_FIELDS.map(({ key, id }) => (
                <ColourField
                  key={key}
                  label={t(`admin:theme.colours.${id}`)}
                  value={draft[key]}
                  invalid={problems[key] === true}
                  showTextColour={id === 'theme' || id === 'themeHover'}
                  onChange={(value) => setDraft({ ...draft, [key]: value })}
                />
              ))}
              <div className={styles.actions}>
                <Button type="submit" appearance="primary" disabled={!valid || !changed || saving}>
                  {saving ? t('admin:theme.saving') : t('admin:theme.save')}
                </Button>
                <Button type="button" disabled={!changed || saving} onClick={() => setDraft(draftOf(stored))}>
                  {t('admin:theme.discard')}
                </Button>
              </div>
            </form>
          </Card>
          <Card>
            <CardHeader header={<Subtitle2 as="h2">{t('admin:theme.imagesTitle')}</Subtitle2>} />
            {(['logo', 'favicon'] as const).map((asset) => (
              <AssetField key={asset} asset={asset} custom={assets.data?.[asset] != null} url={configString(config, THEME_PROFILE_KEYS[`${asset}Url`]) || THEME_ASSET_PATHS[asset]} onChanged={afterChange} />
            ))}
          </Card>
          <Card>
            <CardHeader header={<Subtitle2 as="h2">{t('admin:theme.reset.heading')}</Subtitle2>} description={<Text className={styles.muted}>{t('admin:theme.reset.description')}</Text>} />
            <div>
              <Button icon={<ArrowResetRegular />} onClick={askReset}>
                {t('admin:theme.reset.button')}
              </Button>
            </div>
          </Card>
        </div>
        <div className={styles.column}>
          <Card>
            <CardHeader header={<Subtitle2 as="h2">{t('admin:theme.preview.title')}</Subtitle2>} description={<Text className={styles.muted}>{t('admin:theme.preview.description')}</Text>} />
            <ThemePreview colours={previewColours} title={draft[CONFIG_KEYS.webUiTitle].trim() || String(stored[CONFIG_KEYS.webUiTitle])} logoUrl={configString(config, THEME_PROFILE_KEYS.logoUrl) || THEME_ASSET_PATHS.logo} />
          </Card>
        </div>
      </div>
      <ConfirmDialog request={confirming} onClose={() => setConfirming(null)} onDone={() => void afterChange()} />
    </>
  );
}

/** One colour: the browser's picker beside a hex text field (SPEC §5), and for button colours the text colour the luminance rule picks. */
function ColourField({ label, value, invalid, showTextColour, onChange }: { label: string; value: string; invalid: boolean; showTextColour: boolean; onChange: (value: string) => void }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const valid = invalid ? null : normalised(value);
  const hint = valid && showTextColour ? t(buttonTextColor(valid) === '#FFFFFF' ? 'admin:theme.lightText' : 'admin:theme.darkText', { luminance: Math.round(luminance(valid)) }) : undefined;
  return (
    <Field label={label} validationMessage={invalid ? t('admin:theme.invalidHex') : undefined} hint={hint}>
      <Input
        value={value}
        maxLength={7}
        placeholder="#19853F"
        onChange={(_e, data) => onChange(data.value)}
        contentBefore={<input type="color" className={styles.swatch} aria-label={t('admin:theme.pick', { name: label })} value={valid ?? '#000000'} onChange={(e) => onChange(e.target.value.toUpperCase())} />}
      />
    </Field>
  );
}

/** Logo or favicon: the current image, upload (type and size checked here and again by the server) and remove. */
function AssetField({ asset, custom, url, onChanged }: { asset: ThemeAsset; custom: boolean; url: string; onChanged: () => Promise<void> }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const notify = useNotify();
  const input = useRef<HTMLInputElement>(null);
  const labelId = useId();
  const [busy, setBusy] = useState(false);
  const maxKiB = THEME_ASSET_MAX_BYTES[asset] / 1024;
  const name = t(`admin:theme.assets.${asset}`);

  async function run(action: () => Promise<unknown>, done: string) {
    setBusy(true);
    try {
      await action();
      await onChanged();
      notify('success', done);
    } catch {
      notify('error', t('admin:theme.assets.failed', { name }), t('admin:theme.assets.rules', { types: THEME_ASSET_TYPES[asset].map((type) => type.replace('image/', '').replace('+xml', '').replace('x-icon', 'ico').toUpperCase()).join(', '), max: maxKiB }));
    } finally {
      setBusy(false);
    }
  }

  function picked(file: File | undefined) {
    if (input.current) input.current.value = '';
    if (!file) return;
    if (file.size > THEME_ASSET_MAX_BYTES[asset]) {
      notify('error', t('admin:theme.assets.tooLarge', { name, max: maxKiB }));
      return;
    }
    void run(() => uploadThemeAsset(asset, file), t('admin:theme.assets.uploaded', { name }));
  }

  return (
    <div className={styles.fields} role="group" aria-labelledby={labelId}>
      <Text id={labelId} weight="semibold">
        {name}
      </Text>
      <div className={styles.asset}>
        <img src={url} alt={t('admin:theme.assets.current', { name })} className={styles.assetImage} data-testid={`theme-${asset}-image`} />
        <input ref={input} type="file" className={styles.hidden} accept={THEME_ASSET_TYPES[asset].join(',')} data-testid={`theme-${asset}-input`} onChange={(e) => picked(e.target.files?.[0])} />
        <Button icon={<ImageAddRegular />} disabled={busy} onClick={() => input.current?.click()}>
          {t('admin:theme.assets.upload', { name })}
        </Button>
        {custom ? (
          <Button icon={<DeleteRegular />} disabled={busy} onClick={() => void run(() => removeThemeAsset(asset), t('admin:theme.assets.removed', { name }))}>
            {t('admin:theme.assets.remove', { name })}
          </Button>
        ) : null}
      </div>
      <Text className={styles.muted}>{t(custom ? 'admin:theme.assets.customHint' : 'admin:theme.assets.defaultHint', { max: maxKiB })}</Text>
    </div>
  );
}
