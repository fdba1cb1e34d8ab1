// The server's start command (`npm start` / `npm run serve`): configuration from the
// environment (and --admin-email/--admin-password flags), migrations, first administrator
// or the installation wizard, listen, graceful shutdown.
import { parseArgs } from 'node:util';
import { buildApp } from '@server/app';
import { ConfigError, describeConfig, loadConfig } from '@server/config';
import { retryWhileDatabaseUnavailable } from '@server/db/availability';
import { ensureFirstAdmin } from '@server/setup/first-admin';

async function main(): Promise<void> {
  const { values: flags } = parseArgs({
    options: {
      'admin-email': { type: 'string' },
      'admin-password': { type: 'string' },
    },
    strict: true,
  });
  const config = loadConfig(process.env, {
    ...(flags['admin-email'] ? { adminEmail: flags['admin-email'] } : {}),
    ...(flags['admin-password'] ? { adminPassword: flags['admin-password'] } : {}),
  });
  const app = await buildApp({ config });
  app.log.info({ config: describeConfig(config) }, 'configuration');

  // Waits out a database that went away since buildApp, like the start itself (issue 29 §1).
  const firstAdmin = await retryWhileDatabaseUnavailable('first administrator', () => ensureFirstAdmin(app, { email: config.adminEmail, password: config.adminPassword }), app.log);

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // Stop listening (the balancer's next connection goes elsewhere; /readyz and every new request
    // on an open connection get 503), hand running jobs back, let running requests finish, close
    // the database. Requests still running after KUVERT_SHUTDOWN_TIMEOUT are cut off.
    const force = setTimeout(() => {
      app.log.warn({ timeoutMs: config.shutdownTimeoutMs }, 'shutdown timeout: cutting off the requests still running');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    force.unref();
    app.close().then(
      () => {
        app.log.info('shut down');
        process.exit(0);
      },
      (err: unknown) => {
        app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  const lines = [`Kuvert is running at ${config.publicUrl}/`];
  if ('created' in firstAdmin) {
    lines.push(`First administrator: ${firstAdmin.created.email} (password: the one given in KUVERT_ADMIN_PASSWORD / --admin-password)`);
  } else if ('wizardPath' in firstAdmin) {
    // The setup code keeps the wizard from whoever opens it first; it is printed only here.
    lines.push(`No administrator yet. Finish the installation wizard now: ${config.publicUrl}${firstAdmin.wizardPath}`);
    lines.push(`Setup code for the wizard: ${firstAdmin.setupCode}`);
  }
  process.stdout.write(`\n${lines.join('\n')}\n\n`);
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`Kuvert could not start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
