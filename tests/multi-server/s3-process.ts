// The S3 test server (s3rver) in a process of its own, so that a test or bench busy reading
// hundreds of downloads does not starve it (in-process, the servers' S3 connections timed out).
// Prints one JSON line {endpoint, bucket, directory, env}; SIGTERM closes it and removes its folder.
// An outage for tests/faults: SIGUSR1 stops it (connections closed, then refused), SIGUSR2 starts it
// again on the same port and folder; each prints "stopped" / "started" once done.
import { startS3TestServer } from '@server/storage/s3-test-server';

const s3 = await startS3TestServer();
process.stdout.write(`${JSON.stringify({ endpoint: s3.endpoint, bucket: s3.bucket, directory: s3.directory, env: s3.env })}\n`);
process.once('SIGTERM', () => {
  void s3.close().then(() => process.exit(0));
});
// While stopped nothing else would keep the process alive.
let stoppedKeepAlive: NodeJS.Timeout | undefined;
process.on('SIGUSR1', () => {
  stoppedKeepAlive ??= setInterval(() => undefined, 60_000);
  void s3.stop().then(() => process.stdout.write('stopped\n'));
});
process.on('SIGUSR2', () => {
  void s3.start().then(() => {
    clearInterval(stoppedKeepAlive);
    stoppedKeepAlive = undefined;
    process.stdout.write('started\n');
  });
});
