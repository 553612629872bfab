import { ADAPTIVE_DISCOVERY_THRESHOLD } from './constants';
import type { PresentationMode, ResolvedMode } from './types';

/**
 * The mode a surface uses (docs/DESIGN.md product rule 1): adaptive is direct below 30 bound tools and
 * discovery from 30 on; it never resolves to unified. `boundToolCount` excludes system tools.
 */
export function resolveMode(configured: PresentationMode, boundToolCount: number): ResolvedMode {
  switch (configured) {
    case 'direct':
    case 'discovery':
    case 'unified':
      return configured;
    case 'adaptive':
      return boundToolCount >= ADAPTIVE_DISCOVERY_THRESHOLD ? 'discovery' : 'direct';
  }
}
