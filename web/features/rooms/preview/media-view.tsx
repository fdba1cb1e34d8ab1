import { usePreviewStyles } from './preview-styles';

/**
 * Audio or video in the browser's player. A plain room's `src` is the preview URL itself: the player
 * streams and seeks with Range requests (206). A Secure room's is a blob URL of the decrypted bytes.
 */
export function MediaView({ kind, src, name }: { kind: 'audio' | 'video'; src: string; name: string }) {
  const styles = usePreviewStyles();
  return kind === 'video' ? (
    <video className={styles.media} src={src} controls preload="metadata" aria-label={name} />
  ) : (
    <audio className={styles.media} src={src} controls preload="metadata" aria-label={name} />
  );
}
