import { MessageBar, MessageBarBody } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';

/** Banner with text key authError when the user could not be loaded (SPEC §2, §8). */
export function AuthErrorBanner() {
  const { t } = useTranslation();
  return (
    <MessageBar intent="error" role="alert">
      <MessageBarBody>{t('shell:authError')}</MessageBarBody>
    </MessageBar>
  );
}
