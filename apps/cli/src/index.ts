// Entry points of the `toolsurface` CLI, for its tests and for programs that embed it.
export {
  parseCommandLine,
  buildProgram,
  parseJsonObject,
  parseIntegerOption,
  parseAddress,
  DEFAULT_RESOLVER,
  DEFAULT_DISPATCH,
} from './program';
export type { CliCommand, CliOutput, GlobalOptions, ParsedCommandLine, ParseOutcome } from './program';
export { runCli, runCommand, errorLine } from './run';
export type { GatewayApi, RunOptions } from './run';
