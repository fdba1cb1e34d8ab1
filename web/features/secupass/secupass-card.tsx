import { Card, makeStyles } from '@fluentui/react-components';
import { mediaQueryMinWidth } from '@shared/theme/constants';
import type { ReactNode } from 'react';

const useStyles = makeStyles({
  wrap: { display: 'flex', justifyContent: 'center', padding: '24px 12px' },
  card: { width: '100%', maxWidth: '480px', padding: '24px', [mediaQueryMinWidth('sm')]: { padding: '32px' } },
});

/** The card the passphrase screens sit in (auth area, minimal chrome like the sign-in screens). */
export function SecuPassCard({ children }: { children: ReactNode }) {
  const styles = useStyles();
  return (
    <div className={styles.wrap}>
      <Card className={styles.card}>{children}</Card>
    </div>
  );
}

export const secuPassFormStyle = { display: 'grid', gap: '16px' } as const;
