import type { ServiceWorkerDecodeArgs } from '@shared/crypto/download-decrypt';
import type { CryptoApi } from '@shared/crypto/service';
import { E2eDownloadError, signedContentArgs, type OpenedE2eDelivery } from './e2e';

/**
 * What the download service worker needs to decrypt one file of an opened delivery (or E2E room
 * file) itself (web/README "Downloads"): that file's key from the crypto Worker as a
 * non-extractable CryptoKey with the checks its reader makes, and the signed size and header hash.
 * Only this file's key leaves the Worker; the private keys never do.
 */
export async function serviceWorkerDecodeArgs(options: { delivery: OpenedE2eDelivery; fileId: string; crypto: CryptoApi }): Promise<ServiceWorkerDecodeArgs> {
  const file = options.delivery.files.find((f) => f.fileId === options.fileId);
  if (!file) throw new E2eDownloadError('download', 'The file is not in the signed manifest');
  const key = await options.crypto.serviceWorkerDownloadKey({ fileKey: file.fileKey, ...signedContentArgs(file) });
  return { key, plaintextLength: file.size, expectedHeaderSha256: file.headerSha256 };
}
