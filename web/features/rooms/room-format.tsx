import { Badge } from '@fluentui/react-components';
import type { RoomRole } from '@shared/contract/rooms';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

const ROLE_COLOURS = { OWNER: 'brand', EDITOR: 'success', VIEWER: 'informative', PREVIEWER: 'subtle' } as const;

/** The caller's (or an access entry's) room role in words (SPEC §6 table). */
export function RoleBadge({ role }: { role: RoomRole }) {
  const { t } = useTranslation();
  return (
    <Badge appearance="tint" color={ROLE_COLOURS[role]}>
      {t(`rooms:roles.${role}`)}
    </Badge>
  );
}

export function useDateFormat(): Intl.DateTimeFormat {
  const { i18n } = useTranslation();
  return useMemo(() => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }), [i18n.language]);
}
