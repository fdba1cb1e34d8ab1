import { Button } from '@fluentui/react-components';
import { DismissRegular } from '@fluentui/react-icons';
import type { ConfigProfile } from '@shared/api/endpoints/config-profile';
import type { Language } from '@shared/contract/constants';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { activeMaintenanceNotice } from './maintenance';

/** Dismissals last for the page's life; a changed notice shows again. */
const dismissed = new Set<string>();

export function MaintenanceBanner({ config, language }: { config: ConfigProfile; language: Language }) {
  const { t } = useTranslation();
  const [, rerender] = useState(0);
  const notice = activeMaintenanceNotice(config, language, Date.now());
  if (!notice || dismissed.has(notice.id)) return null;
  return (
    <section
      aria-label={t('shell:maintenance.label')}
      data-testid="maintenance-banner"
      style={{ background: notice.backgroundColor, color: notice.textColor, padding: '12px 16px', display: 'flex', gap: 12, alignItems: 'flex-start' }}
    >
      <div style={{ flex: 1 }}>
        {notice.title ? <strong style={{ display: 'block' }}>{notice.title}</strong> : null}
        {notice.content ? <span>{notice.content}</span> : null}
      </div>
      <Button
        appearance="transparent"
        icon={<DismissRegular />}
        style={{ color: notice.buttonColor }}
        aria-label={t('shell:maintenance.dismiss')}
        onClick={() => {
          dismissed.add(notice.id);
          rerender((n) => n + 1);
        }}
      />
    </section>
  );
}
