import { makeStyles, typographyStyles } from '@fluentui/react-components';
import { useEffect, useRef, type ReactNode } from 'react';

const useStyles = makeStyles({
  heading: { ...typographyStyles.title2, margin: '0 0 16px', outline: 'none' },
});

/**
 * The page's h1. Takes focus on mount when `focusOnMount` (pages without a form), so screen
 * readers announce the new page after a client-side navigation.
 */
export function PageHeading({ children, focusOnMount = false }: { children: ReactNode; focusOnMount?: boolean }) {
  const styles = useStyles();
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focusOnMount) ref.current?.focus({ preventScroll: true });
  }, [focusOnMount]);
  return (
    <h1 ref={ref} tabIndex={-1} className={styles.heading}>
      {children}
    </h1>
  );
}
