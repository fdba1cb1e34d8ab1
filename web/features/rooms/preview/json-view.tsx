import { useTranslation } from 'react-i18next';
import { Alert } from '@web/components/alert';
import { TextView } from './text-view';

/** JSON pretty-printed (two spaces); text that does not parse is shown as it is, with a note. */
export function JsonView({ text, name }: { text: string; name: string }) {
  const { t } = useTranslation();
  let pretty: string | null;
  try {
    pretty = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    pretty = null;
  }
  return (
    <>
      {pretty === null ? <Alert type="warning">{t('rooms:preview.jsonInvalid')}</Alert> : null}
      <TextView text={pretty ?? text} name={name} />
    </>
  );
}
