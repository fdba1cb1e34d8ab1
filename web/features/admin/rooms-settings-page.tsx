import { ROOM_CREATION_POLICIES, ROOM_SETTING_KEYS, TRASH_RETENTION_DAYS_RANGE } from '@shared/contract/room-admin';
import { ROOM_INVITATION_VALID_DAYS_KEY, ROOM_INVITATION_VALID_DAYS_RANGE } from '@shared/contract/room-invitations';
import { ROOM_RETENTION_MIN_DAYS_KEY, ROOM_RETENTION_MIN_DAYS_RANGE } from '@shared/contract/room-retention';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { SettingsForm, type SettingSection } from './settings-form';
import { ANALYTICS_ACTIONS } from '@web/lib/analytics/actions';
import { track } from '@web/lib/analytics/analytics';

/** Administration › Secure rooms › General: who creates rooms, E2E rooms, trash retention (shared/contract/room-admin.ts), the rooms' smallest retention period (room-retention.ts), invitation validity (room-invitations.ts). */
export function RoomsSettingsPage() {
  const { t } = useTranslation();
  // SPEC's "data room administered": the administrator's data-room administration (Secure rooms › General).
  useEffect(() => track(ANALYTICS_ACTIONS.dataRoomAdministered), []);
  const sections = useMemo<SettingSection[]>(
    () => [
      {
        id: 'creation',
        title: t('admin:roomsAdmin.settings.creationTitle'),
        description: t('admin:roomsAdmin.settings.creationDescription'),
        fields: [
          {
            kind: 'choice',
            key: ROOM_SETTING_KEYS.creation,
            label: t('admin:roomsAdmin.settings.creation'),
            options: ROOM_CREATION_POLICIES.map((value) => ({ value, label: t(`admin:roomsAdmin.settings.policies.${value}`) })),
          },
          {
            kind: 'switch',
            key: ROOM_SETTING_KEYS.e2eAllowed,
            label: t('admin:roomsAdmin.settings.e2eAllowed'),
            hint: t('admin:roomsAdmin.settings.e2eAllowedHint'),
          },
        ],
      },
      {
        id: 'trash',
        title: t('admin:roomsAdmin.settings.trashTitle'),
        fields: [
          {
            kind: 'integer',
            key: ROOM_SETTING_KEYS.trashRetentionDays,
            label: t('admin:roomsAdmin.settings.retention'),
            hint: t('admin:roomsAdmin.settings.retentionHint'),
            unit: t('admin:settingsForm.units.days'),
            min: TRASH_RETENTION_DAYS_RANGE[0],
            max: TRASH_RETENTION_DAYS_RANGE[1],
          },
          {
            // The floor of each room's own retention period (issue 31 §2).
            kind: 'integer',
            key: ROOM_RETENTION_MIN_DAYS_KEY,
            label: t('admin:roomsAdmin.settings.retentionMinDays'),
            hint: t('admin:roomsAdmin.settings.retentionMinDaysHint'),
            unit: t('admin:settingsForm.units.days'),
            min: ROOM_RETENTION_MIN_DAYS_RANGE[0],
            max: ROOM_RETENTION_MIN_DAYS_RANGE[1],
          },
        ],
      },
      {
        id: 'invitations',
        title: t('admin:roomsAdmin.settings.invitationsTitle'),
        fields: [
          {
            kind: 'integer',
            key: ROOM_INVITATION_VALID_DAYS_KEY,
            label: t('admin:roomsAdmin.settings.invitationDays'),
            hint: t('admin:roomsAdmin.settings.invitationDaysHint'),
            unit: t('admin:settingsForm.units.days'),
            min: ROOM_INVITATION_VALID_DAYS_RANGE[0],
            max: ROOM_INVITATION_VALID_DAYS_RANGE[1],
          },
        ],
      },
    ],
    [t],
  );
  return <SettingsForm title={t('admin:roomsAdmin.settings.title')} intro={t('admin:roomsAdmin.settings.intro')} sections={sections} />;
}
