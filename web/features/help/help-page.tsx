import { Body1, Button, makeStyles, Spinner, tokens, typographyStyles } from '@fluentui/react-components';
import { Alert } from '@web/components/alert';
import { PageHeading } from '@web/components/page-heading';
import { track } from '@web/lib/analytics/analytics';
import { ANALYTICS_ACTIONS } from '@web/lib/analytics/actions';
import { hashedUserId, helpAccessTags, productHelpSettings, type ProductHelpSettings } from '@web/lib/analytics/settings';
import { useAuthState } from '@web/lib/auth';
import { useConfigState } from '@web/lib/config-store';
import { currentLanguage } from '@web/lib/i18n';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { openProductHelp } from './widget';

/** Sections of the bundled help (locales/<lang>/help.json `sections.<id>`), by audience. */
const USER_SECTIONS = ['sending', 'levels', 'receiving', 'passphrase', 'addin', 'downloads'] as const;
const IT_SECTIONS = ['addinInstall', 'accounts', 'privacy'] as const;
type SectionId = (typeof USER_SECTIONS)[number] | (typeof IT_SECTIONS)[number];

interface SectionText {
  title: string;
  paragraphs?: string[];
  steps?: string[];
}

const useStyles = makeStyles({
  toc: { margin: '0 0 24px', paddingLeft: '20px' },
  audience: { ...typographyStyles.subtitle1, margin: '32px 0 8px' },
  section: { margin: '0 0 24px', maxWidth: '72ch' },
  sectionTitle: { ...typographyStyles.subtitle2, margin: '16px 0 8px' },
  link: { color: tokens.colorBrandForegroundLink },
  widget: { display: 'flex', gap: '12px', alignItems: 'center', margin: '0 0 16px' },
});

function BundledSection({ id }: { id: SectionId }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const text = t(`help:sections.${id}`, { returnObjects: true }) as SectionText;
  return (
    <section className={styles.section} aria-labelledby={`help-${id}`}>
      <h3 id={`help-${id}`} className={styles.sectionTitle}>
        {text.title}
      </h3>
      {(text.paragraphs ?? []).map((paragraph) => (
        <Body1 as="p" key={paragraph}>
          {paragraph}
        </Body1>
      ))}
      {text.steps ? (
        <ol>
          {text.steps.map((step) => (
            <li key={step}>
              <Body1>{step}</Body1>
            </li>
          ))}
        </ol>
      ) : null}
    </section>
  );
}

/** The bundled documentation (issue 17 §4): for users and for IT, with a table of contents. */
function BundledHelp() {
  const { t } = useTranslation();
  const styles = useStyles();
  const groups = [
    { id: 'users', sections: USER_SECTIONS },
    { id: 'it', sections: IT_SECTIONS },
  ] as const;
  return (
    <div data-testid="bundled-help">
      <Body1 as="p">{t('help:intro')}</Body1>
      <nav aria-label={t('help:contents')}>
        <ul className={styles.toc}>
          {groups.flatMap(({ sections }) => sections).map((id) => (
            <li key={id}>
              <a className={styles.link} href={`#help-${id}`}>
                {(t(`help:sections.${id}`, { returnObjects: true }) as SectionText).title}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {groups.map(({ id, sections }) => (
        <section key={id} aria-labelledby={`help-audience-${id}`}>
          <h2 id={`help-audience-${id}`} className={styles.audience}>
            {t(`help:audience.${id}`)}
          </h2>
          {sections.map((section) => (
            <BundledSection key={section} id={section} />
          ))}
        </section>
      ))}
    </div>
  );
}

type WidgetState = 'opening' | 'open' | 'failed';

/** The configured widget: opened on arrival and by the button; a failure falls back to the bundled help. */
function WidgetHelp({ settings }: { settings: ProductHelpSettings }) {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  const { user } = useAuthState();
  const [state, setState] = useState<WidgetState>('opening');
  const roleNames = user?.roleNames;
  const userUuid = user?.uuid ?? '';
  // Re-initialised in the new language when it changes (useTranslation re-renders then).
  void i18n.language;
  const language = currentLanguage();

  const open = useCallback(async () => {
    setState('opening');
    try {
      const id = userUuid ? await hashedUserId(userUuid) : '';
      await openProductHelp(settings, { language, user: { id, tags: helpAccessTags(roleNames ?? []) } });
      setState('open');
      track(ANALYTICS_ACTIONS.helpOpened, { kind: 'widget' });
    } catch (error) {
      console.error('The product-help widget could not be opened', error);
      setState('failed');
    }
  }, [settings, language, userUuid, roleNames]);

  useEffect(() => {
    void open();
  }, [open]);

  if (state === 'failed') {
    return (
      <>
        <Alert type="warning" title={t('help:widget.failedTitle')}>
          {t('help:widget.failedText')}
        </Alert>
        <BundledHelp />
      </>
    );
  }
  return (
    <div className={styles.widget}>
      {state === 'opening' ? <Spinner size="tiny" label={t('help:widget.opening')} /> : <Body1>{t('help:widget.opened')}</Body1>}
      <Button appearance="primary" disabled={state === 'opening'} onClick={() => void open()}>
        {t('help:widget.openAgain')}
      </Button>
    </div>
  );
}

/** Help (SPEC §1, issue 17 §4): the product-help widget when configured, else the bundled documentation. */
export function HelpPage() {
  const { t } = useTranslation();
  const { config } = useConfigState();
  const settings = useMemo(() => productHelpSettings(config), [config]);
  useEffect(() => {
    if (!settings) track(ANALYTICS_ACTIONS.helpOpened, { kind: 'bundled' });
  }, [settings]);
  return (
    <>
      <PageHeading focusOnMount>{t('help:title')}</PageHeading>
      {settings ? <WidgetHelp settings={settings} /> : <BundledHelp />}
    </>
  );
}
