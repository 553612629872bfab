import { Shutdown, startServiceTelemetry } from '@toolsurface/platform';
import { createApp } from './app';
import { ConfigError, loadConfig } from './config';

// Telemetry first, so every span of the service has a provider behind it.
const telemetry = startServiceTelemetry('dispatch', 1);

let config;
try {
  config = loadConfig();
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(`dispatch: bad configuration: ${err.message}`);
  process.exit(1);
}

const app = createApp(config, { tracer: telemetry.tracer });
const shutdown = new Shutdown(app.logger).add('app', () => app.stop()).add('telemetry', () => telemetry.shutdown());
shutdown.onSignals();

try {
  await app.start();
} catch (err) {
  app.logger.fatal({ err }, 'dispatch failed to start');
  await shutdown.run();
  process.exit(1);
}
