// Query-side synonym groups. Each group is a set of words that people and tool authors use for the
// same operation or object; a query word pulls in the other words of its groups at a reduced weight.
// Groups are general tool vocabulary (CRUD verbs, file formats, common API nouns), chosen by looking
// at which words tool descriptions use versus which words requests use, and kept only where the
// eval dev split measured a gain (see README); none is keyed to a particular query.
import { analyze } from './tokenize.js';

/** Default synonym groups (plain words; stemmed at build time). */
export const DEFAULT_SYNONYMS: readonly (readonly string[])[] = [
  // retrieval verbs
  ['find', 'search', 'lookup', 'look', 'query', 'get', 'fetch', 'retrieve', 'list'],
  ['show', 'display', 'view', 'get', 'list'],
  ['check', 'verify', 'validate', 'get'],
  // write verbs
  ['create', 'make', 'add', 'new', 'generate', 'build'],
  ['save', 'write', 'store', 'export'],
  ['delete', 'remove', 'erase', 'drop', 'cancel'],
  ['update', 'modify', 'edit', 'change', 'set'],
  ['send', 'post', 'share', 'email', 'message'],
  ['buy', 'purchase', 'order', 'shop'],
  ['book', 'reserve', 'reservation', 'booking'],
  ['play', 'stream', 'listen'],
  ['translate', 'translation', 'language'],
  ['convert', 'conversion', 'transform', 'exchange'],
  ['calculate', 'compute', 'calculator', 'estimate'],
  ['summarize', 'summary', 'summarise'],
  ['analyze', 'analyse', 'analysis'],
  ['download', 'fetch'],
  ['read', 'open', 'load', 'get'],
  // objects
  ['weather', 'forecast', 'temperature', 'climate'],
  ['movie', 'film', 'cinema'],
  ['song', 'music', 'track', 'audio'],
  ['picture', 'image', 'photo'],
  ['video', 'clip', 'youtube'],
  ['hotel', 'accommodation', 'lodging', 'stay', 'room'],
  ['flight', 'airline', 'fly', 'plane'],
  ['car', 'vehicle', 'automobile'],
  ['job', 'career', 'employment', 'work'],
  ['doctor', 'physician', 'medical'],
  ['stock', 'share', 'ticker', 'equity'],
  ['money', 'currency', 'price', 'cost'],
  ['recipe', 'cook', 'cooking', 'food'],
  ['restaurant', 'dining', 'eat', 'food'],
  ['news', 'headline', 'article'],
  ['location', 'place', 'address', 'city'],
  ['direction', 'route', 'navigate', 'distance'],
  ['document', 'doc', 'docx', 'word'],
  ['presentation', 'ppt', 'pptx', 'slide', 'powerpoint'],
  ['spreadsheet', 'excel', 'xlsx', 'sheet', 'csv'],
  ['markdown', 'md'],
  ['pdf', 'document'],
  ['chart', 'graph', 'plot', 'diagram', 'visualization'],
  ['time', 'date', 'clock'],
  ['event', 'concert', 'show'],
  ['ticket', 'tickets'],
  ['website', 'web', 'page', 'url', 'site', 'webpage'],
  ['repository', 'repo', 'github'],
  ['mail', 'email', 'inbox'],
  ['friend', 'contact', 'people'],
];

/** Stemmed word → stemmed words of all its groups (itself excluded). */
export function buildSynonymMap(groups: readonly (readonly string[])[]): Map<string, string[]> {
  const map = new Map<string, Set<string>>();
  for (const group of groups) {
    const stems = [...new Set(group.flatMap((w) => analyze(w, { whole: false, stop: false })))];
    for (const s of stems) {
      let set = map.get(s);
      if (!set) map.set(s, (set = new Set()));
      for (const o of stems) if (o !== s) set.add(o);
    }
  }
  return new Map([...map].map(([k, v]) => [k, [...v]]));
}
