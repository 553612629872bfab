// Preload of tools/bench/mcp.bench.ts with BENCH_CPU_PROF=<dir> (NODE_OPTIONS refuses --cpu-prof):
// profiles this process with the inspector from start-up and, on SIGUSR2, writes
// <dir>/<pid>.cpuprofile (open it in Chrome DevTools or speedscope).
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';

const dir = process.env.BENCH_CPU_PROF_DIR;
const session = new Session();
session.connect();
session.post('Profiler.enable');
session.post('Profiler.setSamplingInterval', { interval: 200 });
session.post('Profiler.start');
process.on('SIGUSR2', () => {
  session.post('Profiler.stop', (err, result) => {
    if (!err && dir) writeFileSync(join(dir, `${process.pid}.cpuprofile`), JSON.stringify(result.profile));
  });
});
