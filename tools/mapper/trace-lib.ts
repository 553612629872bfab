/**
 * The mapping trace of the eval (offline-eval.ts --trace): for each single-call request, with the
 * ground-truth tool given, the value each argument took, the module that proposed it and why, the
 * runner-up, and whether the checker accepts the value; then, per module, the values it supplied
 * and how many of them were wrong. A wrong value is thereby traced to one module.
 */
import { type ArgTrace } from '@toolsurface/analysis';
import { argumentProblems } from '@toolsurface/eval-kit';
import { halfOf } from './halves-lib.js';

/** Values a module supplied to arguments, and how many the checker rejected. */
export interface ModuleTally {
  taken: number;
  wrong: number;
}

/** Collects the trace of the requests mapped one after another. */
export class TraceLog {
  readonly lines: string[] = [];
  readonly byModule = new Map<string, ModuleTally>();

  /** Adds one request: its mapped arguments and trace against the acceptable values. */
  add(
    id: string,
    tool: string,
    mapped: { arguments: Record<string, unknown>; trace?: Record<string, ArgTrace> },
    acceptable: Record<string, unknown[]>,
    schema: Record<string, unknown> | undefined,
  ): void {
    const problems = argumentProblems(mapped.arguments, acceptable, schema);
    const half = halfOf(id);
    this.lines.push(`${id} [${half}] ${tool}: ${problems.length === 0 ? 'right' : 'WRONG'}`);
    const shown = new Set<string>();
    for (const [name, t] of Object.entries(mapped.trace ?? {})) {
      // (a nested object's own fields are traced under "parent.child"; the checker judges the parent)
      const top = name.split('.')[0];
      const problem = name === top ? problems.find((p) => p.startsWith(`${name}: `)) : undefined;
      if (problem) shown.add(problem);
      const runner = t.runnerUp ? `  | runner-up ${JSON.stringify(t.runnerUp.value)} ← ${t.runnerUp.module} (${t.runnerUp.why})` : '';
      this.lines.push(
        `  ${problem ? '✗' : '✓'} ${name} = ${JSON.stringify(t.value)} ← ${t.module} (${t.why}, ${t.score.toFixed(2)})${runner}${problem ? `  [${problem}]` : ''}`,
      );
      if (name !== top) continue;
      const tally = this.byModule.get(t.module) ?? { taken: 0, wrong: 0 };
      tally.taken++;
      if (problem) tally.wrong++;
      this.byModule.set(t.module, tally);
    }
    for (const p of problems) if (!shown.has(p)) this.lines.push(`  ✗ ${p}`);
  }

  /** The whole trace, then the per-module tally (most values first). */
  text(): string {
    const rows = [...this.byModule.entries()].sort((a, b) => b[1].taken - a[1].taken || a[0].localeCompare(b[0]));
    const tally = rows.map(([m, t]) => `  ${m.padEnd(22)} took ${String(t.taken).padStart(5)}  wrong ${String(t.wrong).padStart(4)}`);
    return [...this.lines, '', 'values taken per module (given tool, single-call requests):', ...tally, ''].join('\n');
  }
}
