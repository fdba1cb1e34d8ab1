import { Button, makeStyles, Text } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';

const useStyles = makeStyles({ pager: { display: 'flex', gap: '8px', alignItems: 'center', marginTop: '8px' } });

/** Previous / "Page n of m" / Next under a paged table of the form tabs (History, Submissions); nothing for one page. */
export function Pager({ page, total, pageSize, onPage }: { page: number; total: number; pageSize: number; onPage: (page: number) => void }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (total <= pageSize) return null;
  return (
    <div className={styles.pager}>
      <Button disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t('formAdmin:history.previous')}
      </Button>
      <Text>{t('formAdmin:history.pageOf', { page, pages })}</Text>
      <Button disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {t('formAdmin:history.next')}
      </Button>
    </div>
  );
}
