import { join } from 'node:path';
import { ConfigError, type KuvertConfig } from '../config';
import type { BlobStore } from './blob-store';
import { createLocalBlobStore } from './local-blob-store';
import { createS3BlobStore, S3ConfigurationError } from './s3-blob-store';
import { guardAvailability } from './unavailable';

export interface OpenedBlobStore {
  store: BlobStore;
  /** Where the bytes go, for the start log and `/readyz` (no secrets). */
  kind: 's3' | 'local';
  close(): void;
}

/**
 * The blob store the configuration asks for: the S3 bucket when `S3_BUCKET` is set (checked
 * now: a bucket that is missing, unreachable or refuses the key pair stops the start with one
 * line, never a silent fallback to the local folder), else `<dataDir>/blobs`. Either way an outage
 * later throws StorageUnavailableError (`guardAvailability`: 503 with Retry-After).
 */
export async function openBlobStore(config: KuvertConfig): Promise<OpenedBlobStore> {
  if (config.s3Bucket === undefined) return { store: guardAvailability(createLocalBlobStore(join(config.dataDir, 'blobs'))), kind: 'local', close: () => undefined };
  const store = createS3BlobStore({
    endpoint: config.s3Endpoint,
    bucket: config.s3Bucket,
    region: config.s3Region,
    accessKeyId: config.s3AccessKeyId,
    secretAccessKey: config.s3SecretAccessKey,
    forcePathStyle: config.s3ForcePathStyle,
  });
  try {
    await store.verifyAccess();
  } catch (error) {
    store.close();
    if (error instanceof S3ConfigurationError) throw new ConfigError(error.message);
    throw error;
  }
  return { store: guardAvailability(store), kind: 's3', close: () => store.close() };
}
