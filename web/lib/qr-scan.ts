import jsQR from 'jsqr';

/**
 * Reading QR codes in the browser (issue 12 §4, a contact's fingerprint code): from an image file
 * the user chose, or from the camera (getUserMedia), frame by frame, decoded with jsQR on a canvas
 * in the page (no Worker, no network). Nothing leaves the browser.
 */

/** Larger images are scaled down to this many pixels on their long side: a phone photo decodes in time. */
const MAX_DECODE_SIDE = 1600;

function decodeCanvas(source: CanvasImageSource, width: number, height: number): string | null {
  const scale = Math.min(1, MAX_DECODE_SIDE / Math.max(width, height));
  const w = Math.max(1, Math.round(width * scale));
  const h = Math.max(1, Math.round(height * scale));
  const canvas = document.createElement('canvas');
  canvas.width = w;
  canvas.height = h;
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) return null;
  context.drawImage(source, 0, 0, w, h);
  const { data } = context.getImageData(0, 0, w, h);
  return jsQR(data, w, h, { inversionAttempts: 'attemptBoth' })?.data ?? null;
}

/** The text of the QR code in an image file; null when the image holds none (or is no image). */
export async function decodeQrImage(file: Blob): Promise<string | null> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    return null;
  }
  try {
    return decodeCanvas(bitmap, bitmap.width, bitmap.height);
  } finally {
    bitmap.close();
  }
}

export type CameraProblem = 'denied' | 'noCamera' | 'failed';

/** Why the camera could not start, for the user. */
export function cameraProblem(error: unknown): CameraProblem {
  const name = error instanceof Error || error instanceof DOMException ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'denied';
  if (name === 'NotFoundError' || name === 'OverconstrainedError' || name === 'NoCameraError') return 'noCamera';
  return 'failed';
}

/**
 * Shows the camera in `video` and decodes frames until a QR code is found (`onCode`, once) or the
 * returned stop function is called. Rejects (see `cameraProblem`) when there is no camera or the
 * user refused it.
 */
export async function scanQrWithCamera(video: HTMLVideoElement, onCode: (text: string) => void): Promise<() => void> {
  if (!navigator.mediaDevices?.getUserMedia) throw new DOMException('No camera API', 'NotFoundError');
  const stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false });
  let stopped = false;
  let frame = 0;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    cancelAnimationFrame(frame);
    for (const track of stream.getTracks()) track.stop();
    video.srcObject = null;
  };
  video.srcObject = stream;
  video.muted = true;
  video.playsInline = true;
  await video.play().catch(() => undefined);
  const tick = () => {
    if (stopped) return;
    if (video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA && video.videoWidth > 0) {
      const text = decodeCanvas(video, video.videoWidth, video.videoHeight);
      if (text !== null) {
        stop();
        onCode(text);
        return;
      }
    }
    frame = requestAnimationFrame(tick);
  };
  frame = requestAnimationFrame(tick);
  return stop;
}
