import { makeStyles, Text, tokens } from '@fluentui/react-components';

const useStyles = makeStyles({
  person: { display: 'grid' },
  address: { color: tokens.colorNeutralForeground3 },
});

/**
 * A person in a room's lists (activity, trash; issue 32): the display name, the address on a
 * secondary line (also the tooltip) — readable by keyboard and screen reader, unlike a tooltip alone.
 * No name known: the address alone.
 */
export function PersonName({ name, email }: { name?: string | null | undefined; email: string }) {
  const styles = useStyles();
  if (!name || name === email) return <>{email}</>;
  return (
    <span className={styles.person} title={email}>
      <span>{name}</span>
      <Text size={200} className={styles.address}>
        {email}
      </Text>
    </span>
  );
}
