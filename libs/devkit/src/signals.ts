/**
 * Calls `stop` on the first SIGINT or SIGTERM. A repeat within `graceMs` (default 2 s) is ignored:
 * under `npm start` the terminal signals the whole process group and tsx relays the same signal
 * again. A repeat after that exits at once with 130 (the exit hook of spawnManaged still kills
 * the process groups it started).
 */
export function onStopSignal(stop: (signal: NodeJS.Signals) => void, graceMs = 2000): void {
  let first = 0;
  const handle = (signal: NodeJS.Signals) => {
    if (first === 0) {
      first = Date.now();
      stop(signal);
    } else if (Date.now() - first >= graceMs) {
      process.stderr.write(`${signal} again: exiting now\n`);
      process.exit(130);
    }
  };
  process.on('SIGINT', handle);
  process.on('SIGTERM', handle);
}
