// The `toolsurface` command (bin/toolsurface.js runs this file through tsx).
import { runCli } from './run';

const io = { out: (s: string) => process.stdout.write(s), err: (s: string) => process.stderr.write(s) };
process.exitCode = await runCli(process.argv.slice(2), io, { width: process.stdout.columns || 100 });
