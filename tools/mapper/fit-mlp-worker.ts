/**
 * A child process of fitListwiseMlpParallel (fit-lib.ts): reads the examples from the JSON file
 * named by its first argument, fits one model per options object it receives over IPC, and
 * sends each model back. Not run by hand.
 */
import { readFileSync } from 'node:fs';
import { fitListwiseMlp, type ListExample, type MlpOptions } from './fit-lib.js';

const { examples, dim } = JSON.parse(readFileSync(process.argv[2], 'utf8')) as { examples: ListExample[]; dim: number };
process.on('message', (msg: { id: number; opts: MlpOptions & { subset: number[] } } | 'exit') => {
  if (msg === 'exit') process.exit(0);
  const { subset, ...opts } = msg.opts;
  process.send!({
    id: msg.id,
    model: fitListwiseMlp(
      subset.map((i) => examples[i]),
      dim,
      opts,
    ),
  });
});
process.send!('ready');
