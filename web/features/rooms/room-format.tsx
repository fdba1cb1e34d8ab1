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

/** A file size in the language's number format (1024-based; B, KB, MB, GB, TB). */
export function formatRoomSize(bytes: number, locale: string): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  // A no-break space keeps the figure and its unit on one line.
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: unit === 0 ? 0 : 1 }).format(value)}\u00a0${units[unit]}`;
}
