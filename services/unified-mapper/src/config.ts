// The only reader of process.env in this service.

/** Validated settings of unified-mapper. */
export interface MapperConfig {
  natsUrl: string;
  grpcHost: string;
  grpcPort: number;
  logLevel: string;
  /** Snapshots whose index and mapper stay in memory. */
  maxSnapshots: number;
}

function int(env: NodeJS.ProcessEnv, name: string, dflt: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return dflt;
  // Whole decimal numbers only.
  if (!/^\d+$/.test(raw)) throw new Error(`${name} must be an integer, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new Error(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

/** Reads and validates the environment; throws an Error naming the bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): MapperConfig {
  const level = env.LOG_LEVEL ?? 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(level)) throw new Error(`LOG_LEVEL must be a pino level, got "${level}"`);
  return {
    natsUrl: env.NATS_URL || 'nats://127.0.0.1:4222',
    // Loopback by default: the APIs have no caller authentication yet, so exposing them is the operator's explicit choice.
    grpcHost: env.GRPC_HOST || '127.0.0.1',
    grpcPort: int(env, 'GRPC_PORT', 50054, 0, 65535),
    logLevel: level,
    maxSnapshots: int(env, 'MAX_SNAPSHOTS', 64, 1, 100_000),
  };
}
