import { Checkbox, Field, Input, Link, makeStyles, Subtitle2, tokens } from '@fluentui/react-components';
import { FORM_FOOTER_LINKS, type FormFooter } from '@shared/contract/form-footer';
import { footerLinks } from '@shared/rules/form-footer-rules';
import { useTranslation } from 'react-i18next';
import { ANALYTICS_ACTIONS } from '@web/lib/analytics/actions';
import { track } from '@web/lib/analytics/analytics';

/**
 * The form footer (shared/contract/form-footer.ts): its fields in the Layout tab, and the links
 * at the bottom of the public page (new tab, no opener, no referrer).
 */

const useStyles = makeStyles({
  section: { display: 'grid', gap: '8px' },
  footer: { display: 'flex', gap: '16px', flexWrap: 'wrap', borderTop: `1px solid ${tokens.colorNeutralStroke2}`, paddingTop: '12px' },
  list: { display: 'flex', gap: '16px', flexWrap: 'wrap', listStyle: 'none', margin: 0, padding: 0 },
});

export function FooterEditor({ footer, problemAt, onChange }: { footer: FormFooter; problemAt: (field: string) => string | undefined; onChange: (footer: FormFooter) => void }) {
  const { t } = useTranslation();
  const styles = useStyles();
  return (
    <section className={styles.section} aria-labelledby="form-footer-title">
      <Subtitle2 as="h2" id="form-footer-title">
        {t('forms:layout.footer.title')}
      </Subtitle2>
      <Checkbox label={t('forms:layout.footer.enabled')} checked={footer.enabled} onChange={(_e, d) => onChange({ ...footer, enabled: d.checked === true })} />
      {FORM_FOOTER_LINKS.map((key) => (
        <Field key={key} label={t(`forms:layout.footer.${key}`)} validationMessage={problemAt(`layout.footer.${key}`)}>
          <Input type="url" value={footer[key]} onChange={(_e, d) => onChange({ ...footer, [key]: d.value })} placeholder="https://" />
        </Field>
      ))}
    </section>
  );
}

/** The footer of the public page and its success page; nothing unless enabled with at least one link. */
export function FormFooterLinks({ footer }: { footer: FormFooter | undefined }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const links = footerLinks(footer);
  if (links.length === 0) return null;
  return (
    <footer className={styles.footer}>
      <nav aria-label={t('forms:public.footer.label')}>
        <ul className={styles.list}>
          {links.map((link) => (
            <li key={link.key}>
              <Link href={link.href} target="_blank" rel="noopener noreferrer" title={t('forms:public.footer.newTab')} onClick={() => track(ANALYTICS_ACTIONS.externalLinkClicked, { link: link.key })}>
                {t(`forms:public.footer.${link.key}`)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </footer>
  );
}
