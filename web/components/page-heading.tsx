import { makeStyles, typographyStyles } from '@fluentui/react-components';
import { useEffect, useRef, type ReactNode } from 'react';

const useStyles = makeStyles({
  heading: { ...typographyStyles.title2, margin: '0 0 16px', outline: 'none' },
});

/** The first page after a full load keeps the browser's focus (so Tab reaches the skip link first). */
let firstPageShown = false;

/**
 * The page's h1. Takes focus on mount when `focusOnMount` (pages without a form), so screen
 * readers announce the new page after a client-side navigation (not on the first page).
 */
export function PageHeading({ children, focusOnMount = false }: { children: ReactNode; focusOnMount?: boolean }) {
  const styles = useStyles();
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    const isFirstPage = !firstPageShown;
    firstPageShown = true;
    if (focusOnMount && !isFirstPage) ref.current?.focus({ preventScroll: true });
  }, [focusOnMount]);
  return (
    <h1 ref={ref} tabIndex={-1} className={styles.heading}>
      {children}
    </h1>
  );
}
