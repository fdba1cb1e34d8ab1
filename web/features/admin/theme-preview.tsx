import { makeStyles, tokens } from '@fluentui/react-components';
import { buttonTextColor, type ThemeTokens } from '@shared/theme/theme-rules';
import { useTranslation } from 'react-i18next';

const useStyles = makeStyles({
  frame: { border: `1px solid ${tokens.colorNeutralStroke1}`, borderRadius: tokens.borderRadiusMedium, overflow: 'hidden', background: tokens.colorNeutralBackground1 },
  bar: { display: 'flex', alignItems: 'center', gap: '12px', padding: '8px 12px', background: 'var(--preview-theme)', color: 'var(--preview-on-theme)' },
  logo: { height: '28px', maxWidth: '120px', objectFit: 'contain' },
  title: { fontWeight: 600, fontSize: '16px' },
  nav: { display: 'flex', gap: '4px', marginLeft: '8px' },
  navItem: { padding: '4px 8px', borderRadius: tokens.borderRadiusMedium },
  navActive: { padding: '4px 8px', borderRadius: tokens.borderRadiusMedium, background: 'var(--preview-theme-hover)', color: 'var(--preview-on-hover)', fontWeight: 600 },
  body: { padding: '12px', display: 'grid', gap: '12px', justifyItems: 'start' },
  button: { border: 'none', borderRadius: tokens.borderRadiusMedium, padding: '6px 14px', fontWeight: 600, background: 'var(--preview-theme)', color: 'var(--preview-on-theme)' },
  hoverButton: { border: 'none', borderRadius: tokens.borderRadiusMedium, padding: '6px 14px', fontWeight: 600, background: 'var(--preview-theme-hover)', color: 'var(--preview-on-hover)' },
  buttons: { display: 'flex', gap: '8px', flexWrap: 'wrap' },
  table: { borderCollapse: 'collapse', width: '100%', maxWidth: '420px' },
  cell: { padding: '6px 8px', textAlign: 'left' },
});

/**
 * A live preview of the shell in the draft colours: the top bar with logo and title, the menu's
 * current entry (hover colour), a primary button and its hover state (text by the luminance rule),
 * and table rows (row and row-hover colours). Nothing here is interactive: it is a picture.
 */
export function ThemePreview({ colours, title, logoUrl }: { colours: Omit<ThemeTokens, 'onTheme'>; title: string; logoUrl: string }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const vars = {
    '--preview-theme': colours.theme,
    '--preview-theme-hover': colours.themeHover,
    '--preview-on-theme': buttonTextColor(colours.theme),
    '--preview-on-hover': buttonTextColor(colours.themeHover),
  } as React.CSSProperties;
  return (
    <figure className={styles.frame} style={{ ...vars, margin: 0 }} aria-label={t('admin:theme.preview.label')} data-testid="theme-preview">
      <div className={styles.bar} data-testid="theme-preview-bar">
        <img src={logoUrl} alt="" className={styles.logo} />
        <span className={styles.title}>{title}</span>
        <span className={styles.nav} aria-hidden="true">
          <span className={styles.navActive}>{t('admin:theme.preview.inbox')}</span>
          <span className={styles.navItem}>{t('admin:theme.preview.send')}</span>
        </span>
      </div>
      <div className={styles.body}>
        <div className={styles.buttons} aria-hidden="true">
          <span className={styles.button} data-testid="theme-preview-button">
            {t('admin:theme.preview.button')}
          </span>
          <span className={styles.hoverButton}>{t('admin:theme.preview.hoverButton')}</span>
        </div>
        <table className={styles.table} aria-label={t('admin:theme.preview.table')}>
          <tbody>
            <tr style={{ background: colours.tableRow, color: buttonTextColor(colours.tableRow) }}>
              <td className={styles.cell}>{t('admin:theme.preview.row')}</td>
              <td className={styles.cell}>12.11.2026</td>
            </tr>
            <tr style={{ background: colours.tableRowHover, color: buttonTextColor(colours.tableRowHover) }}>
              <td className={styles.cell}>{t('admin:theme.preview.hoverRow')}</td>
              <td className={styles.cell}>13.11.2026</td>
            </tr>
          </tbody>
        </table>
      </div>
    </figure>
  );
}
