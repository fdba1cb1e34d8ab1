import type { RoleName } from '@shared/contract/constants';
import { REPORT_ROLES } from '@shared/contract/reports';
import { FLOW_ROLES } from '@shared/contract/flow-roles';
import { ROUTES, SECUMAILS_BASE } from '@web/lib/routes';

export interface MenuItem {
  id: string;
  /** i18n key of the label. */
  labelKey: string;
  to: string;
  /** Shown only to users with one of these roles. */
  roles?: readonly RoleName[];
  /**
   * The paths (prefixes) where this entry is the current one (`aria-current="page"`); default: its
   * own `to`. Empty for an entry that only leads into another entry's area (web/README.md "Main menu").
   */
  currentOn?: readonly string[];
}

export const ADMIN_ROLES: readonly RoleName[] = ['ROLE_ADMIN', 'ROLE_ROOT', 'ROLE_USER_ADMIN'];

/**
 * Main menu entries in SPEC §1 order. Areas not built yet open an in-app "coming soon" page.
 * DESIGN §9: "Secure mails" is the delivery area (every /secumails page); "Deliveries" opens its
 * Send page. "Datarooms" opens the (plain) data rooms; "Secure rooms" — end-to-end encrypted
 * rooms, not built yet — its own "coming soon" page. One area, one current entry: the area's own
 * (Secure mails); the second entry only leads there.
 */
export const MAIN_MENU: readonly MenuItem[] = [
  { id: 'secure-mails', labelKey: 'shell:menu.secureMails', to: ROUTES.inbox, currentOn: [SECUMAILS_BASE] },
  { id: 'deliveries', labelKey: 'shell:menu.deliveries', to: ROUTES.send, currentOn: [] },
  { id: 'datarooms', labelKey: 'shell:menu.datarooms', to: ROUTES.datarooms },
  { id: 'secure-rooms', labelKey: 'shell:menu.secureRooms', to: ROUTES.secureRooms },
  { id: 'forms', labelKey: 'shell:menu.forms', to: ROUTES.forms },
  { id: 'flows', labelKey: 'shell:menu.flows', to: ROUTES.flows, roles: FLOW_ROLES },
  { id: 'administration', labelKey: 'shell:menu.administration', to: ROUTES.admin, roles: ADMIN_ROLES },
  { id: 'reports', labelKey: 'shell:menu.reports', to: ROUTES.reports, roles: REPORT_ROLES },
  { id: 'help', labelKey: 'shell:menu.help', to: ROUTES.help },
];

/** Product menu of the delivery area (SPEC §1). */
export const DELIVERY_MENU: readonly MenuItem[] = [
  { id: 'send', labelKey: 'shell:deliveryMenu.send', to: ROUTES.send },
  { id: 'submit-box', labelKey: 'shell:deliveryMenu.submitBox', to: ROUTES.submitBox, roles: ['ROLE_SUBMITBOX_OWNER'] },
  { id: 'inbox', labelKey: 'shell:deliveryMenu.inbox', to: ROUTES.inbox },
  { id: 'sent', labelKey: 'shell:deliveryMenu.sent', to: ROUTES.outbox },
];

/** The id of the entry that is current on this path (at most one: the first match in menu order). */
export function currentItemId(items: readonly MenuItem[], pathname: string): string | undefined {
  const under = (prefix: string) => pathname === prefix || pathname.startsWith(`${prefix}/`);
  return items.find((item) => (item.currentOn ?? [item.to]).some(under))?.id;
}

export function visibleItems(items: readonly MenuItem[], roleNames: readonly string[]): MenuItem[] {
  return items.filter((item) => !item.roles || item.roles.some((role) => roleNames.includes(role)));
}
