// The model mapper's wiring: its settings with a logged warning and a metric for every answer the
// rule engine had to replace, and a metric for every answer used.
import { metrics } from '@opentelemetry/api';
import { Attr, INSTRUMENTATION_SCOPE, Metric } from '@toolsurface/core';
import { EndpointPause, type OpenAIMapperOptions } from '@toolsurface/mapper';
import type { Logger } from '@toolsurface/platform';
import type { ModelMapperConfig } from './model.config';

/** OpenAIMapper options from the config, reporting to `logger` and the MAPPER_MODEL_CALLS counter. */
export function modelMapperOptions(config: ModelMapperConfig, logger: Logger): OpenAIMapperOptions {
  const m = Metric.MAPPER_MODEL_CALLS;
  const calls = metrics
    .getMeter(INSTRUMENTATION_SCOPE.name, INSTRUMENTATION_SCOPE.version)
    .createCounter(m.name, { unit: m.unit, description: m.description });
  const { pauseAfter, pauseMs, ...endpoint } = config;
  return {
    ...endpoint,
    // one endpoint, one pause, whichever snapshot's mapper meets the failures
    pause: new EndpointPause(pauseAfter, pauseMs),
    onAnswer: () => calls.add(1, { [Attr.TS_OUTCOME]: 'answered' }),
    onFailure: ({ kind, message }) => {
      calls.add(1, { [Attr.TS_OUTCOME]: 'fallback', [Attr.TS_REASON]: kind });
      // the failure that started the pause was logged; each request it skips is only counted
      if (kind === 'paused') return;
      // the key is never in `message` nor in the config fields logged here
      logger.warn(
        { reason: kind, detail: message, model: config.model, endpoint: config.baseUrl },
        'model mapper answer unusable; the rule engine answered',
      );
    },
  };
}
