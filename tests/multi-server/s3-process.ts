// The S3 test server (s3rver) in a process of its own, so that a test or bench busy reading
// hundreds of downloads does not starve it (in-process, the servers' S3 connections timed out).
// Prints one JSON line {endpoint, bucket, directory, env}; SIGTERM closes it and removes its folder.
import { startS3TestServer } from '@server/storage/s3-test-server';

const s3 = await startS3TestServer();
process.stdout.write(`${JSON.stringify({ endpoint: s3.endpoint, bucket: s3.bucket, directory: s3.directory, env: s3.env })}\n`);
process.once('SIGTERM', () => {
  void s3.close().then(() => process.exit(0));
});
