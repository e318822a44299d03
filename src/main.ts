// Entry point: `npm start` / `make run`. Configuration errors stop start-up with a message that
// names the bad key, and so does a Node or C library no native uWebSockets.js build loads on (exit
// 3, before anything else starts); SIGTERM and SIGINT drain the shards and close LMDB before exiting.
import { ConfigError } from './config/errors.js';
import { loadStartOptions, packageVersion, SERVER_HELP } from './config/load.js';
import { selectUws } from './gateway/uws.js';
import { startService } from './service.js';
import { createLogger } from './base/log.js';

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const binding = selectUws();
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${SERVER_HELP}\n`);
    return;
  }
  if (argv.includes('--version') || argv.includes('-V')) {
    const runsOn = binding.ok ? binding.build : 'no native build loads (start-up would stop)';
    process.stdout.write(`tas ${packageVersion()}\nnode ${process.version}\nuWebSockets.js ${runsOn}\n`);
    return;
  }
  if (!binding.ok) {
    process.stderr.write(`${binding.message}\n`);
    process.exit(3);
  }
  let opts;
  try {
    opts = loadStartOptions(argv, process.env, process.cwd());
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const log = createLogger(opts.config.log.level, { thread: 'main' });
  log.info({ build: binding.build, node: process.version, glibc: binding.platform.glibc, refused: binding.refused }, 'uWebSockets.js binding');
  const fatal = (err: Error): void => {
    log.fatal({ err }, 'fatal error, stopping');
    process.exit(1);
  };
  const service = await startService(opts, log, fatal);
  // Before `ready` is logged: whoever reads that line may signal at once, and until a handler is
  // installed SIGTERM kills the process outright, without the shards' last checkpoint.
  let stopping = false;
  const stop = (sig: string): void => {
    if (stopping) return;
    stopping = true;
    log.info({ signal: sig }, 'stopping');
    service.stop().then(
      () => { log.info('stopped'); process.exit(0); },
      (err: unknown) => { log.error({ err }, 'unclean stop'); process.exit(1); },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  log.info({
    version: packageVersion(),
    uws: binding.build,
    ports: service.ports,
    shards: service.pool.size,
    shard_threads: service.pool.threadIds(),
    data_dir: opts.config.data_dir,
    config: opts.configFile,
    seed: opts.seedFile,
  }, 'ready');
  if (opts.seedFile === null) {
    // The embedded demo fixture: its credentials are public, and printing them makes `make run` usable at once.
    const seed = opts.config.seed;
    log.info({
      keys: seed.keys.map((k) => ({ id: k.id, secret: k.secret, login: k.login, scopes: k.scopes })),
      webhooks: seed.webhooks.map((w) => ({ id: w.id, secret: w.secret })),
      users: seed.users.map((u) => ({ id: u.id, password: u.password, totp_secret: u.totp_secret })),
      admin_token: service.adminToken.token,
    }, 'demo credentials');
  } else {
    log.info({ admin_token_origin: service.adminToken.origin }, 'operator token');
  }

}

main().catch((err: unknown) => {
  process.stderr.write(`start-up failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
  process.exit(1);
});
