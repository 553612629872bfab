// The floor of one discover_tools call on this machine: a grpc-js server of the same
// DiscoveryService proto, in its own process, whose DiscoverTools answers at once, with no
// OpenTelemetry and no domain code. eval:discovery times it call by call beside the real service,
// so the report shows what of a call's latency is the machine's (two processes waking each other
// over loopback, grpc-js on both sides) and what is the service's own work; the
// discover-latency bench prints it beside the service's rows.
//
//   npx tsx test/eval/bare-grpc.ts PORT    (prints "ready" once bound)
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { credentials, Server, ServerCredentials } from '@grpc/grpc-js';
import { DiscoveryServiceClient, DiscoveryServiceService, type DiscoverToolsResponse } from '@toolsurface/proto';
import { findFreePort } from '@toolsurface/devkit';

/** A query the bare server answers with an empty result (NO_MATCH); any other gets TEN_HITS. */
export const NO_MATCH_QUERY = 'zzqqxx';

/**
 * Ten hits shaped like the service's on the eval corpus: qualified names of about 40 characters,
 * descriptions at the 300-character cut (HIT_DESCRIPTION_MAX), scores with three decimals.
 */
const TEN_HITS = {
  hits: Array.from({ length: 10 }, (_, i) => ({
    name: `livemcpbench:get_weather_forecast_${i}:5bbc4366`,
    description: `${'Get the weather forecast for a city for the next days, with temperature, precipitation and wind speed; dates in ISO 8601. '.repeat(3).slice(0, 298)}…`,
    score: Math.round((12.345 - i) * 1000) / 1000,
  })),
  totalTools: 3091,
  emptyReason: '',
  hint: '',
};
const EMPTY = { hits: [], totalTools: 3091, emptyReason: 'NO_MATCH', hint: 'Nothing among 3091 tools matched.' };

function serve(port: number): void {
  const server = new Server();
  server.addService(DiscoveryServiceService, {
    discoverTools: (call: { request: { query?: string } }, cb: (err: null, res: unknown) => void) =>
      cb(null, call.request.query === NO_MATCH_QUERY ? EMPTY : TEN_HITS),
    getToolSchema: (_call: unknown, cb: (err: null, res: unknown) => void) => cb(null, {}),
  });
  server.bindAsync(`127.0.0.1:${port}`, ServerCredentials.createInsecure(), (err) => {
    if (err) throw err;
    console.log('ready');
  });
}

/** One discover_tools call (limit 10) of a snapshot, as a promise. */
export type DiscoverCall = (query: string) => Promise<DiscoverToolsResponse>;

/** A client of a DiscoveryService at `address` asking one snapshot. */
export function discoverCaller(address: string, snapshotId: string): { call: DiscoverCall; close(): void } {
  const client = new DiscoveryServiceClient(address, credentials.createInsecure());
  const call: DiscoverCall = (query) =>
    new Promise((resolve, reject) =>
      client.discoverTools({ snapshotId, query, limit: 10 }, (err, res) => (err ? reject(err) : resolve(res))),
    );
  return { call, close: () => client.close() };
}

/** Starts the bare server in a child process on a free port; resolves once it is bound. */
export async function startBareServer(): Promise<{ call: DiscoverCall; stop(): void }> {
  const port = await findFreePort();
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), String(port)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    await new Promise((resolve, reject) => {
      child.stdout!.once('data', resolve);
      child.once('exit', (code) => reject(new Error(`the bare gRPC server exited (${code})`)));
    });
  } catch (e) {
    child.kill();
    throw e;
  }
  const { call, close } = discoverCaller(`127.0.0.1:${port}`, `snap_${'0'.repeat(64)}`);
  return {
    call,
    stop() {
      close();
      child.kill();
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) serve(Number(process.argv[2]));
