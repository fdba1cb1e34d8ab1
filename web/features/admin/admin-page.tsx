import { RouterLink } from '@web/components/router-link';
import { Card, CardHeader, Link, makeStyles, Subtitle2 } from '@fluentui/react-components';
import { PageHeading } from '@web/components/page-heading';
import type { RoleName } from '@shared/contract/constants';
import { useAuthState } from '@web/lib/auth';
import { Alert } from '@web/components/alert';
import { analyticsSettings, productHelpSettings } from '@web/lib/analytics/settings';
import { useConfigState } from '@web/lib/config-store';
import { ADMIN_BASE } from '@web/lib/routes';
import { useTranslation } from 'react-i18next';


interface AdminMenuItem {
  id: string;
  labelKey: string;
  to: string;
  /** The route's roles (web/app/router.tsx): shown only to holders, anyone else would bounce to the inbox. */
  roles?: readonly RoleName[];
}

/** Administration menu groups of SPEC §1. */
export const ADMIN_MENU_GROUPS: readonly { id: string; labelKey: string; items: readonly AdminMenuItem[] }[] = [
  {
    id: 'platform',
    labelKey: 'shell:admin.groups.platform',
    items: [
      { id: 'users', labelKey: 'shell:admin.items.users', to: `${ADMIN_BASE}/users`, roles: ['ROLE_ADMIN', 'ROLE_USER_ADMIN'] },
      { id: 'system', labelKey: 'shell:admin.items.system', to: `${ADMIN_BASE}/system`, roles: ['ROLE_ADMIN'] },
      { id: 'license', labelKey: 'shell:admin.items.license', to: `${ADMIN_BASE}/license`, roles: ['ROLE_ADMIN', 'ROLE_USER_ADMIN'] },
      { id: 'theme', labelKey: 'shell:admin.items.theme', to: `${ADMIN_BASE}/theme`, roles: ['ROLE_ADMIN'] },
      { id: 'audit-log', labelKey: 'shell:admin.items.auditLog', to: `${ADMIN_BASE}/audit-log`, roles: ['ROLE_ADMIN'] },
    ],
  },
  {
    id: 'secure-mails',
    labelKey: 'shell:admin.groups.secureMails',
    items: [
      { id: 'secure-mails-general', labelKey: 'shell:admin.items.general', to: `${ADMIN_BASE}/secure-mails`, roles: ['ROLE_ADMIN'] },
      { id: 'trust-networks', labelKey: 'shell:admin.items.trustNetworks', to: `${ADMIN_BASE}/trust-networks` },
    ],
  },
  {
    id: 'secure-rooms',
    labelKey: 'shell:admin.groups.secureRooms',
    items: [
      { id: 'secure-rooms-general', labelKey: 'shell:admin.items.general', to: `${ADMIN_BASE}/secure-rooms`, roles: ['ROLE_ADMIN'] },
      { id: 'trash-bin', labelKey: 'shell:admin.items.trashBin', to: `${ADMIN_BASE}/trash-bin`, roles: ['ROLE_ADMIN'] },
      { id: 'storage-quotas', labelKey: 'shell:admin.items.storageQuotas', to: `${ADMIN_BASE}/storage-quotas`, roles: ['ROLE_ADMIN'] },
    ],
  },
];

const mayOpen = (item: AdminMenuItem, held: readonly string[]) => !item.roles || item.roles.some((role) => held.includes(role));

const useStyles = makeStyles({
  grid: { display: 'grid', gap: '16px', gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))' },
  list: { margin: 0, paddingLeft: '20px', display: 'grid', gap: '6px' },
  addin: { marginTop: '16px', maxWidth: '480px' },
});

/** Served by the server for its own public URL (server/routes/addin-routes.ts). */
const ADDIN_MANIFEST_URL = '/addin/manifest.xml';

export function AdminPage() {
  const { t } = useTranslation();
  const styles = useStyles();
  const held = useAuthState().user?.roleNames ?? [];
  // Third parties the operator switched on (server settings): said where administrators look.
  const { config } = useConfigState();
  const analytics = analyticsSettings(config);
  const help = productHelpSettings(config);
  return (
    <>
      <PageHeading focusOnMount>{t('shell:admin.title')}</PageHeading>
      {analytics ? <Alert type="info">{t('shell:admin.analyticsOn', { url: analytics.serverUrl })}</Alert> : null}
      {help ? <Alert type="info">{t('shell:admin.helpWidgetOn', { url: help.endpoint })}</Alert> : null}
      <nav aria-label={t('shell:admin.menuLabel')} className={styles.grid}>
        {ADMIN_MENU_GROUPS.map((group) => (
          <Card key={group.id}>
            <CardHeader header={<Subtitle2 as="h2">{t(group.labelKey)}</Subtitle2>} />
            <ul className={styles.list}>
              {group.items
                .filter((item) => mayOpen(item, held))
                .map((item) => (
                  <li key={item.id}>
                    <RouterLink to={item.to}>{t(item.labelKey)}</RouterLink>
                  </li>
                ))}
            </ul>
          </Card>
        ))}
      </nav>
      {/* IT deploys the add-in with one file: the manifest for this very server (README "Outlook add-in"). */}
      <Card className={styles.addin}>
        <CardHeader header={<Subtitle2 as="h2">{t('addin:admin.title')}</Subtitle2>} description={t('addin:admin.text')} />
        <Link href={ADDIN_MANIFEST_URL} download="kuvert-outlook-manifest.xml">
          {t('addin:admin.download')}
        </Link>
      </Card>
    </>
  );
}
