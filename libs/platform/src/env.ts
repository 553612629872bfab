// Readers for the services' config.ts files: each names the variable it refuses.

/** pino's levels, the values LOG_LEVEL may take. */
export const LOG_LEVELS: ReadonlySet<string> = new Set(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

/** An integer variable within [min, max], or `fallback` when unset; throws an Error naming the variable. */
export function envInt(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  // Whole decimal numbers only.
  if (!/^\d+$/.test(raw)) throw new Error(`${name} must be an integer, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new Error(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

/** A "true"/"false" variable, false when unset; throws an Error naming the variable. */
export function envBool(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  throw new Error(`${name} must be "true" or "false", got "${raw}"`);
}

/** LOG_LEVEL, default `info`; throws an Error for anything but a pino level. */
export function envLogLevel(env: NodeJS.ProcessEnv): string {
  const level = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.has(level)) throw new Error(`LOG_LEVEL must be one of ${[...LOG_LEVELS].join(', ')}, got "${level}"`);
  return level;
}
