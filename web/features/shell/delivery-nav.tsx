import { Tab, TabList } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { DELIVERY_MENU } from './menu-items';

/** Product menu of the delivery area: Send, Submit box, Inbox, Sent (SPEC §1). */
export function DeliveryNav() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const selected = DELIVERY_MENU.find((item) => location.pathname.startsWith(item.to))?.id;
  return (
    // A phone too narrow for the four tabs scrolls them, not the page.
    <nav aria-label={t('shell:deliveryMenu.label')} style={{ marginBottom: 16, overflowX: 'auto', maxWidth: '100%' }}>
      <TabList selectedValue={selected ?? null} onTabSelect={(_event, data) => {
        const item = DELIVERY_MENU.find((entry) => entry.id === data.value);
        if (item) navigate(item.to);
      }}>
        {DELIVERY_MENU.map((item) => (
          <Tab key={item.id} value={item.id}>
            {t(item.labelKey)}
          </Tab>
        ))}
      </TabList>
    </nav>
  );
}
