import { Card, makeStyles } from '@fluentui/react-components';
import { mediaQueryMinWidth } from '@shared/theme/constants';
import type { ReactNode } from 'react';

const useStyles = makeStyles({
  wrap: { display: 'flex', justifyContent: 'center', padding: '24px 12px' },
  card: { width: '100%', maxWidth: '440px', padding: '24px', [mediaQueryMinWidth('sm')]: { padding: '32px' } },
});

/** The card every sign-in screen sits in. */
export function AuthCard({ children }: { children: ReactNode }) {
  const styles = useStyles();
  return (
    <div className={styles.wrap}>
      <Card className={styles.card}>{children}</Card>
    </div>
  );
}

export const authFormStyle = { display: 'grid', gap: '16px' } as const;
