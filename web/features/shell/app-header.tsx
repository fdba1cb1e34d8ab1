import {
  Avatar,
  Button,
  makeStyles,
  Menu,
  MenuButton,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
  mergeClasses,
  tokens,
} from '@fluentui/react-components';
import { NavigationRegular, SignOutRegular, SettingsRegular } from '@fluentui/react-icons';
import type { User } from '@shared/contract/user';
import { mediaQueryMinWidth } from '@shared/theme/constants';
import { LanguageSwitcher } from '@web/components/language-switcher';
import { secuPassKeys } from '@web/lib/crypto';
import { authStore } from '@web/lib/auth';
import { ROUTES } from '@web/lib/routes';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { currentItemId, MAIN_MENU, visibleItems } from './menu-items';
import { ANALYTICS_ACTIONS } from '@web/lib/analytics/actions';
import { track } from '@web/lib/analytics/analytics';

const useStyles = makeStyles({
  header: {
    display: 'flex',
    alignItems: 'center',
    gap: '4px',
    padding: '8px',
    minWidth: 0,
    [mediaQueryMinWidth('sm')]: { gap: '12px', padding: '8px 16px' },
    background: 'var(--kuvert-color-theme)',
    color: 'var(--kuvert-color-on-theme)',
  },
  brand: {
    display: 'inline-flex',
    alignItems: 'center',
    gap: '8px',
    fontWeight: 600,
    fontSize: '18px',
    color: 'inherit',
    textDecoration: 'none',
    marginRight: '4px',
    // The other bar items shrink first: "Kuvert" stays whole at 390 px (issue 32 §1); only a long
    // organisation title is cut, at half the width.
    flexShrink: 0,
    maxWidth: '50vw',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
    [mediaQueryMinWidth('sm')]: { marginRight: '12px' },
  },
  logo: { height: '28px', maxWidth: '120px', objectFit: 'contain', flexShrink: 0 },
  nav: { display: 'none', flex: 1, [mediaQueryMinWidth('lg')]: { display: 'block' } },
  navList: { display: 'flex', gap: '4px', listStyle: 'none', margin: 0, padding: 0, flexWrap: 'wrap' },
  link: {
    color: 'inherit',
    textDecoration: 'none',
    padding: '6px 10px',
    borderRadius: tokens.borderRadiusMedium,
    ':hover': { background: 'var(--kuvert-color-theme-hover)' },
    ':focus-visible': { outline: '2px solid currentColor', outlineOffset: '2px' },
  },
  active: { background: 'var(--kuvert-color-theme-hover)', fontWeight: 600 },
  activeItem: { fontWeight: 600, borderLeft: `3px solid var(--kuvert-color-theme)` },
  compactMenu: { [mediaQueryMinWidth('lg')]: { display: 'none' } },
  // On a phone the user menu shows the avatar only (the name stays its accessible name).
  userName: { display: 'none', [mediaQueryMinWidth('sm')]: { display: 'inline' } },
  spacer: { flex: 1, [mediaQueryMinWidth('lg')]: { display: 'none' } },
  // Fluent's transparent buttons bring their own text colour; on the theme bar it must follow the luminance rule.
  onTheme: {
    color: 'var(--kuvert-color-on-theme)',
    ':hover': { color: 'var(--kuvert-color-on-theme)', background: 'var(--kuvert-color-theme-hover)' },
    ':hover:active': { color: 'var(--kuvert-color-on-theme)' },
  },
});

/**
 * Top bar: brand, main menu (SPEC §1), the app's extra tools (e.g. the file transfer centre, given
 * the header's button class), language switcher, user menu with settings and logout.
 */
export function AppHeader({ title, logoUrl, user, tools }: { title: string; logoUrl?: string; user: User | null; tools?: (buttonClassName: string) => ReactNode }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const navigate = useNavigate();
  const items = visibleItems(MAIN_MENU, user?.roleNames ?? []);
  // Exactly one entry is current (menu-items.ts): two entries can lead into the same area.
  const current = currentItemId(items, useLocation().pathname);
  const displayName = user ? `${user.firstName} ${user.lastName}`.trim() || user.username : '';

  return (
    <header className={styles.header}>
      {/* A plain link: NavLink would mark it aria-current on the inbox next to the menu's entry. */}
      <Link to={ROUTES.inbox} className={styles.brand}>
        {/* The installation's logo (Administration › Theme); the title beside it names the link. */}
        {logoUrl ? <img src={logoUrl} alt="" className={styles.logo} data-testid="shell-logo" /> : null}
        {title}
      </Link>
      {user ? (
        <>
          <nav aria-label={t('shell:menu.label')} className={styles.nav}>
            <ul className={styles.navList}>
              {items.map((item) => (
                <li key={item.id}>
                  <Link
                    to={item.to}
                    aria-current={item.id === current ? 'page' : undefined}
                    className={item.id === current ? mergeClasses(styles.link, styles.active) : styles.link}
                  >
                    {t(item.labelKey)}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <div className={styles.compactMenu}>
            <Menu>
              <MenuTrigger disableButtonEnhancement>
                <Button appearance="transparent" className={styles.onTheme} icon={<NavigationRegular />} aria-label={t('shell:menu.label')} />
              </MenuTrigger>
              <MenuPopover>
                <MenuList>
                  {items.map((item) => (
                    <MenuItem
                      key={item.id}
                      aria-current={item.id === current ? 'page' : undefined}
                      className={item.id === current ? styles.activeItem : undefined}
                      onClick={() => navigate(item.to)}
                    >
                      {t(item.labelKey)}
                    </MenuItem>
                  ))}
                </MenuList>
              </MenuPopover>
            </Menu>
          </div>
          <span className={styles.spacer} />
        </>
      ) : (
        <span style={{ flex: 1 }} />
      )}
      {user && tools ? tools(styles.onTheme) : null}
      <LanguageSwitcher className={styles.onTheme} />
      {user ? (
        <Menu>
          <MenuTrigger disableButtonEnhancement>
            <MenuButton appearance="transparent" className={styles.onTheme} icon={<Avatar name={displayName} size={24} color="neutral" />} aria-label={t('shell:userMenu.label', { name: displayName })}>
              <span className={styles.userName}>{displayName}</span>
            </MenuButton>
          </MenuTrigger>
          <MenuPopover>
            <MenuList>
              <MenuItem icon={<SettingsRegular />} onClick={() => navigate(ROUTES.settings)}>
                {t('shell:userMenu.settings')}
              </MenuItem>
              <MenuItem
                icon={<SignOutRegular />}
                onClick={() => {
                  // Forget the unlocked SecuPass keys first (the auth-store subscription in lib/crypto does it too).
                  track(ANALYTICS_ACTIONS.loggedOut);
                  void secuPassKeys.lock();
                  void authStore.logout().then(() => navigate(ROUTES.login, { replace: true }));
                }}
              >
                {t('shell:userMenu.logout')}
              </MenuItem>
            </MenuList>
          </MenuPopover>
        </Menu>
      ) : null}
    </header>
  );
}
