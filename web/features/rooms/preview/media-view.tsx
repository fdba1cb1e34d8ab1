import { usePreviewStyles } from './preview-styles';

/**
 * Audio or video in the browser's player. A plain room's `src` is the preview URL itself: the player
 * streams and seeks with Range requests (206). A Secure room's is `framed`: a page of the download
 * service worker whose player asks it for ranges, decrypted record by record (e2e/e2e-media.ts);
 * without a service worker, a blob URL of the bytes decrypted whole.
 */
export function MediaView({ kind, src, name, framed }: { kind: 'audio' | 'video'; src: string; name: string; framed: boolean }) {
  const styles = usePreviewStyles();
  if (framed) return <iframe className={kind === 'video' ? styles.mediaFrame : styles.audioFrame} src={src} title={name} data-testid="media-frame" />;
  return kind === 'video' ? (
    <video className={styles.media} src={src} controls preload="metadata" aria-label={name} />
  ) : (
    <audio className={styles.media} src={src} controls preload="metadata" aria-label={name} />
  );
}
