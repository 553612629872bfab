// Deprecated tools: which ones say so, and how a re-ordering stage keeps them after the tools
// that replace them.

/**
 * Does a tool's title or description say the tool itself is deprecated? "DEPRECATED" in capitals,
 * "(deprecated)", "deprecated:" or a text that opens with "deprecated", "this tool is deprecated";
 * not a tool about deprecation ("Check if packages are deprecated").
 */
export function saysDeprecated(text: unknown): boolean {
  if (typeof text !== 'string' || text === '') return false;
  const t = text.slice(0, 2000);
  return (
    /\bDEPRECATED\b/.test(t) ||
    /\(deprecated\)|\[deprecated\]|\bdeprecated\s*:|^\W*deprecated\b|\b(?:this (?:tool|function|endpoint|method|command|api) is|is now|has been)\s+deprecated\b/i.test(
      t,
    )
  );
}

/**
 * `reordered` (a stage's order of `head`) with every deprecated tool at the lower of its two
 * places, the first stage's (in `head`) and the stage's, or lower still where another deprecated
 * tool holds that place; the other tools fill the places left, in the stage's order. The stage
 * scores each tool alone and knows nothing of deprecation: a deprecated tool gains no place over
 * a tool that is not deprecated (it stays after its replacement).
 */
export function keepDeprecatedBehind(head: readonly number[], reordered: readonly number[], deprecated: Uint8Array): number[] {
  const held = head
    .map((d, i) => ({ d, at: Math.max(i, reordered.indexOf(d)) }))
    .filter((x) => deprecated[x.d] === 1)
    .sort((a, b) => a.at - b.at);
  const rest = reordered.filter((d) => deprecated[d] !== 1);
  const merged: number[] = [];
  let h = 0;
  let k = 0;
  while (merged.length < reordered.length) {
    const i = merged.length;
    if (h < held.length && (held[h].at <= i || k >= rest.length)) merged.push(held[h++].d);
    else merged.push(rest[k++]);
  }
  return merged;
}
