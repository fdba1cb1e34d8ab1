import { Text } from '@fluentui/react-components';
import type { UserQuota } from '@shared/contract/storage-quotas';
import { formatSize } from '@web/lib/format-size';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { loadUserQuota, saveUserQuota } from './api/storage-quotas';
import { QuotaField } from './quota-field';

/** A user's storage: what they store and their own quota (empty: the default) — issue 32, ROLE_ADMIN only. */
export function UserQuotaField({ userUuid }: { userUuid: string }) {
  const { t, i18n } = useTranslation();
  const [quota, setQuota] = useState<UserQuota | null>(null);
  useEffect(() => {
    let live = true;
    loadUserQuota(userUuid).then(
      (loaded) => live && setQuota(loaded),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [userUuid]);
  if (!quota) return null;
  const size = (bytes: number) => formatSize(bytes, i18n.language);
  return (
    <>
      <Text as="h3" weight="semibold" size={400} style={{ margin: '8px 0 0' }}>
        {t('admin:quotas.userTitle')}
      </Text>
      <Text as="p" style={{ margin: 0 }}>
        {quota.effective === null ? t('admin:quotas.userUsedNoLimit', { used: size(quota.used) }) : t('admin:quotas.usedOf', { used: size(quota.used), total: size(quota.effective) })}
      </Text>
      <QuotaField
        key={quota.quota ?? ''}
        label={t('admin:quotas.userLabel')}
        hint={t('admin:quotas.userHint')}
        value={quota.quota}
        onSave={async (bytes) => setQuota(await saveUserQuota(userUuid, bytes))}
      />
    </>
  );
}
