import { useEffect, useState } from 'react';
import { usePreviewStyles } from './preview-styles';

/** An image from its bytes (a blob URL, revoked when the view goes). */
export function ImageView({ blob, name }: { blob: Blob; name: string }) {
  const styles = usePreviewStyles();
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    const made = URL.createObjectURL(blob);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [blob]);
  return url ? <img className={styles.image} src={url} alt={name} /> : null;
}
