import { Shutdown, startServiceTelemetry } from '@toolsurface/platform';
import { createApp } from './app';
import { loadConfig } from './config';

// Telemetry first, then config, wiring, start, ordered shutdown.
const telemetry = startServiceTelemetry('unified-mapper', 2);
let config;
try {
  config = loadConfig();
} catch (e) {
  console.error(`unified-mapper: bad configuration: ${(e as Error).message}`);
  process.exit(2);
}
const app = createApp(config, telemetry.tracer);
const shutdown = new Shutdown(app.logger).add('app', () => app.stop()).add('telemetry', () => telemetry.shutdown());
shutdown.onSignals();
app.start().catch(async (err) => {
  app.logger.fatal({ err }, 'unified-mapper failed to start');
  await shutdown.run();
  process.exit(1);
});
