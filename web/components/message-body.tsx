import { makeStyles, mergeClasses, tokens, typographyStyles } from '@fluentui/react-components';

const useStyles = makeStyles({
  // A block box: padding and background belong to the box, not to each line (an inline element's
  // padded line boxes overlap each other). Line breaks are kept, long words and URLs break
  // anywhere instead of widening the page, and each paragraph finds its own direction (RTL).
  body: {
    ...typographyStyles.body1,
    display: 'block',
    boxSizing: 'border-box',
    maxWidth: '100%',
    margin: '0 0 16px',
    padding: '12px',
    whiteSpace: 'pre-wrap',
    overflowWrap: 'anywhere',
    unicodeBidi: 'plaintext',
    textAlign: 'start',
    color: tokens.colorNeutralForeground1,
    backgroundColor: tokens.colorNeutralBackground2,
    borderRadius: tokens.borderRadiusMedium,
  },
});

/**
 * A delivery's message as the sender wrote it (plain text): the one component every delivery
 * screen uses for it (inbox, sent, external download page, the decrypted level-4 message).
 */
export function MessageBody({ children, className }: { children: string; className?: string }) {
  const styles = useStyles();
  return (
    <div className={mergeClasses(styles.body, className)} dir="auto">
      {children}
    </div>
  );
}

const useTextStyles = makeStyles({
  // Headings and cells holding user text (subjects, addresses): wrap long words instead of overflowing.
  wrap: { overflowWrap: 'anywhere', minWidth: 0 },
});

/** The class that lets user text (a subject, an address) wrap inside its box. */
export const useWrapAnywhere = () => useTextStyles().wrap;
