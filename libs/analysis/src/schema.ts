/**
 * JSON Schema helpers: the parameters of a tool, their resolved types, and what kind of value
 * each one asks for (judged from its name, description, format and enum).
 */
import { nameParts, stem, contentStems } from './text.js';

/** Resolved primitive type of a parameter. */
export type ParamType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object' | 'any';

/** What a string (or array item) parameter is about, judged from its name and description. */
export type Semantic =
  | 'date'
  | 'time'
  | 'datetime'
  | 'place'
  | 'origin'
  | 'destination'
  | 'email'
  | 'url'
  | 'path'
  | 'currency'
  | 'id'
  | 'name'
  | 'text'
  | 'unit'
  | 'language'
  | 'country'
  | 'generic';

/** One parameter of a schema, with everything the mapper needs to know about it. */
export interface ParamInfo {
  name: string;
  schema: Record<string, unknown>;
  type: ParamType;
  required: boolean;
  description: string;
  enumValues?: unknown[];
  hasDefault: boolean;
  defaultValue?: unknown;
  /** a default the description states ("Default is 52", "defaults to 'metric'"), as written; undefined when none */
  describedDefault?: string;
  /** stems of the name parts (with abbreviations expanded) */
  anchors: string[];
  /** lower-case name parts */
  parts: string[];
  /** stems of description content words */
  descStems: Set<string>;
  semantic: Semantic;
  /** for arrays: the item schema */
  items?: Record<string, unknown>;
  itemType?: ParamType;
  /** names of the other parameters of the same object */
  siblings: string[];
  /** the descriptions (lower-case) of every parameter of the same object, in `order`; one array shared by them all */
  objectDescriptions: readonly string[];
  /** position in the schema's property order */
  order: number;
  /**
   * Optional, but the description says it is needed unless another parameter is given ("Optional
   * if the identification number is provided"): one of the two is as good as required.
   */
  eitherOr: boolean;
}

/** A description that makes a parameter optional only when another one is given. */
const EITHER_OR =
  /\b(?:optional|not required|not needed|can be omitted)\s+(?:if|when)\b[^.]{0,60}?\b(?:is|are)\s+(?:provided|given|specified|supplied|set)\b/i;

/** True for a plain object. */
export function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Resolves a schema's primitive type (first non-null of a type list / anyOf / oneOf; enum-only -> type of its values). */
export function resolveType(schema: unknown): ParamType {
  if (!isObj(schema)) return 'any';
  let t = schema['type'];
  if (Array.isArray(t)) t = t.find((x) => x !== 'null');
  if (typeof t === 'string') {
    if (t === 'float' || t === 'double') return 'number';
    if (t === 'int') return 'integer';
    if (t === 'dict' || t === 'map') return 'object';
    if (t === 'list' || t === 'tuple') return 'array';
    if (t === 'bool') return 'boolean';
    if (['string', 'integer', 'number', 'boolean', 'array', 'object'].includes(t)) return t as ParamType;
    return 'any';
  }
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const list = schema[key];
    if (Array.isArray(list)) {
      for (const opt of list) {
        const r = resolveType(opt);
        if (r !== 'any' && !(isObj(opt) && opt['type'] === 'null')) return r;
      }
    }
  }
  const en = schema['enum'];
  if (Array.isArray(en) && en.length > 0) {
    if (en.every((v) => typeof v === 'string')) return 'string';
    if (en.every((v) => typeof v === 'number')) return en.every((v) => Number.isInteger(v)) ? 'integer' : 'number';
  }
  if (isObj(schema['properties'])) return 'object';
  if (schema['items'] !== undefined) return 'array';
  return 'any';
}

/** The first sub-schema of anyOf/oneOf that has the given type (or the schema itself). */
function branchOf(schema: Record<string, unknown>, type: ParamType): Record<string, unknown> {
  for (const key of ['anyOf', 'oneOf']) {
    const list = schema[key];
    if (Array.isArray(list)) for (const opt of list) if (isObj(opt) && resolveType(opt) === type) return { ...schema, ...opt };
  }
  return schema;
}

/** Properties of an object schema. */
export function propertiesOf(schema: unknown): Record<string, Record<string, unknown>> {
  if (!isObj(schema)) return {};
  const p = schema['properties'];
  if (!isObj(p)) return {};
  // (no prototype: a property named "__proto__" is kept as one, not taken as the object's prototype)
  const out: Record<string, Record<string, unknown>> = Object.create(null) as Record<string, Record<string, unknown>>;
  for (const [k, v] of Object.entries(p)) out[k] = isObj(v) ? v : {};
  return out;
}

/** Required property names of an object schema (only those that exist in `properties`). */
export function requiredOf(schema: unknown): string[] {
  if (!isObj(schema)) return [];
  const r = schema['required'];
  const props = propertiesOf(schema);
  return Array.isArray(r) ? r.filter((x): x is string => typeof x === 'string' && x in props) : [];
}

/** Words in names/descriptions that reveal what a parameter holds. */
const SEMANTIC_RULES: [Semantic, RegExp, RegExp | null][] = [
  // [semantic, matches name parts joined by spaces, matches description (or null)]; each regex
  // matches whole words that mark the semantic (e.g. "date", "birthday" for 'date')
  ['email', /\b(e ?mail|email address|recipient email)\b/, /\be-?mail address\b/],
  ['url', /\b(url|uri|link|endpoint|website|webpage|homepage|href|domain|host|hostname|site)\b/, /\b(url|uri|web address|hostname)\b/],
  ['path', /\b(path|file|filename|filepath|dir|directory|folder)\b/, /\b(file path|path to|directory|folder)\b/],
  ['datetime', /\b(datetime|timestamp)\b/, /\b(date and time|datetime|iso 8601 (date-?time|timestamp)|yyyy-mm-ddthh|yyyy-mm-dd hh)\b/],
  ['date', /\b(date|day|birthday|dob|deadline|checkin|checkout|check in|check out)\b/, /\b(yyyy-mm-dd|mm\/dd\/yyyy|dd\/mm\/yyyy|date)\b/],
  ['time', /\b(time|hour|clock)\b/, /\b(hh:mm|24-hour|time of day)\b/],
  ['currency', /\b(currency|currencies)\b/, /\bcurrency\b/],
  ['language', /\b(language|lang|locale)\b/, null],
  ['country', /\b(country|nation)\b/, null],
  ['unit', /\b(unit|units|scale)\b/, null],
  ['origin', /\b(from|origin|source|start|departure|depart|pickup|starting)\b/, null],
  ['destination', /\b(to|destination|dest|end|arrival|arrive|target|dropoff|ending)\b/, null],
  [
    'place',
    /\b(location|city|place|address|area|region|venue|where|town|loc|state|neighborhood|district|province|near|zip|jurisdiction)\b/,
    /\b(city|location|address)\b/,
  ],
  ['id', /\b(id|ids|identifier|uuid|key|code|token|number|sku|isbn|serial|account)\b/, null],
  [
    'text',
    /\b(query|text|message|content|prompt|question|body|keyword|keywords|search|term|terms|comment|note|description|summary|instruction|command|input|statement|sentence|phrase|expression|formula|equation|function)\b/,
    null,
  ],
  [
    'name',
    /\b(name|title|artist|author|player|team|company|person|user|username|nickname|brand|movie|song|book|game|album|show|event|restaurant|hotel|species|director|cast|actor|character|league|product|item|food|dish|genre|category|type)\b/,
    null,
  ],
];

/** Classifies what a parameter holds from its name parts and description. */
function semanticOf(parts: string[], description: string, schema: Record<string, unknown>): Semantic {
  const fmt = typeof schema['format'] === 'string' ? (schema['format'] as string) : '';
  if (fmt === 'date') return 'date';
  if (fmt === 'date-time') return 'datetime';
  if (fmt === 'time') return 'time';
  if (fmt === 'email') return 'email';
  if (fmt === 'uri' || fmt === 'url') return 'url';
  const joined = parts.join(' ');
  const desc = description.toLowerCase();
  // an e-mail address, URL or path described as such wins over a generic name ("to", "target")
  if (/\be-?mail\b/.test(desc.slice(0, 80)) && /\baddress|recipient|e-?mail of\b/.test(desc)) return 'email';
  if (/\b(url|uri)\b/.test(desc.slice(0, 60)) && !/\b(name|title)\b/.test(joined)) return 'url';
  // a name that ends in "id" holds an identifier, whatever it identifies ("websiteId", "url_id")
  if (/^(id|ids|uuid|guid)$/.test(parts[parts.length - 1] ?? '') && parts.length > 1) return 'id';
  // a recipient's, e-mail, IP or web address is no place ("to: Recipient address")
  const placeDesc = desc.replace(/\b(?:recipient'?s?|e-?mail|ip|web|mac|wallet|memory)\s+address/g, '');
  // the name decides first; the description only breaks ties for generic names
  for (const [sem, nameRe] of SEMANTIC_RULES) {
    if (nameRe.test(joined)) {
      // "date" parts that describe date-times
      if (sem === 'date' && /\b(hh:mm|date and time|datetime|yyyy-mm-ddthh|yyyy-mm-dd hh)/.test(desc)) return 'datetime';
      if (sem === 'time' && /\b(yyyy|date and time)\b/.test(desc)) return 'datetime';
      // from/to parameters are places only when name or description names a place word
      if (
        (sem === 'origin' || sem === 'destination') &&
        !/\b(city|location|place|airport|station|address|point|origin|destination|departure|arrival|town|country|stop)\b/.test(
          `${joined} ${placeDesc}`,
        )
      )
        continue;
      return sem;
    }
  }
  for (const [sem, , descRe] of SEMANTIC_RULES) if (descRe && descRe.test((sem === 'place' ? placeDesc : desc).slice(0, 160))) return sem;
  return 'generic';
}

/**
 * The default a description states in words, when it states one: "Default is 52.", "defaults to
 * 'metric'", "(default: true)", "Default value is 0". The value is one token or a quoted span;
 * "default is none/null/empty/not specified" and defaults described in prose ("defaults to the
 * current date") give undefined, as does anything longer than 40 characters.
 */
export function describedDefault(description: string): string | undefined {
  const m =
    /\bdefault(?:s| value)?\s*(?:is|to|:|=|of|value is)?\s*(?:set to\s*)?(?:'([^']{1,40})'|"([^"]{1,40})"|`([^`]{1,40})`|((?:-?\d+(?:\.\d+)?(?![\w.]*\w)|true|false|[A-Za-z][\w-]*)(?=\s*(?:[.,;)]|$|\bif\b|\bwhen\b|\bunless\b))))/i.exec(
      description,
    );
  if (!m) return undefined;
  const v = (m[1] ?? m[2] ?? m[3] ?? m[4]).trim();
  if (v === '' || /^(none|null|nil|empty|undefined|unspecified|not|no|the|a|an|current|all|any|this|that|it)$/i.test(v)) return undefined;
  // prose about the default, not a value ("the default is overridden if ...", "Default is required.")
  if (
    /^(required|optional|overridden|used|applied|ignored|given|provided|specified|supplied|set|determined|inherited|omitted|missing|below|above|same|auto|automatic)$/i.test(
      v,
    )
  )
    return undefined;
  return v;
}

/** Builds ParamInfo for every property of an object schema. */
export function paramsOf(schema: unknown): readonly ParamInfo[] {
  // a function of the schema alone, read for every candidate of every request: made once per
  // schema object (snapshots are immutable; a schema changed in place is a new snapshot's object)
  if (schema === null || typeof schema !== 'object') return readParams(schema);
  let cached = PARAMS.get(schema);
  if (cached === undefined) PARAMS.set(schema, (cached = readParams(schema)));
  return cached;
}

/** paramsOf's cache, by schema object. */
const PARAMS = new WeakMap<object, readonly ParamInfo[]>();

/** What readParams and requiredParams read of one property: its type, the branch of that type, its description, name parts and enum. */
function paramCore(
  name: string,
  raw: Record<string, unknown>,
): { type: ParamType; sch: Record<string, unknown>; description: string; parts: string[]; enumValues?: unknown[] } {
  const type = resolveType(raw);
  const sch = type === 'any' ? raw : branchOf(raw, type);
  const description =
    typeof sch['description'] === 'string'
      ? (sch['description'] as string)
      : typeof sch['title'] === 'string'
        ? (sch['title'] as string)
        : '';
  return {
    type,
    sch,
    description,
    parts: nameParts(name),
    enumValues: Array.isArray(sch['enum']) ? (sch['enum'] as unknown[]) : undefined,
  };
}

/** Most entries of a `required` list requiredParams looks at. */
const MAX_REQUIRED_SCANNED = 1000;

/** One required parameter as requiredParams reads it (the ParamInfo fields of the same names). */
export type RequiredParam = Pick<ParamInfo, 'name' | 'type' | 'enumValues' | 'hasDefault' | 'semantic'>;

/**
 * The first `max` names of a schema's top-level `required` list that name one of its own
 * properties, each read as paramsOf reads it (type, enum, default, semantic), without reading the
 * other properties: a cost bounded by `max` whatever the schema's size (paramsOf's grows with the
 * square of its property count). [] for a schema that is not an object or has no such list.
 */
export function requiredParams(schema: unknown, max: number): RequiredParam[] {
  if (!isObj(schema)) return [];
  const props = schema['properties'];
  const required = schema['required'];
  if (!isObj(props) || !Array.isArray(required)) return [];
  const out: RequiredParam[] = [];
  const seen = new Set<string>();
  // (a list of names no property has is read only so far)
  for (let i = 0; i < Math.min(required.length, MAX_REQUIRED_SCANNED) && out.length < max; i++) {
    const name: unknown = required[i];
    if (typeof name !== 'string' || seen.has(name) || !Object.hasOwn(props, name)) continue;
    seen.add(name);
    const raw: unknown = props[name];
    const { type, sch, description, parts, enumValues } = paramCore(name, isObj(raw) ? raw : {});
    out.push({ name, type, enumValues, hasDefault: 'default' in sch, semantic: semanticOf(parts, description, sch) });
  }
  return out;
}

/**
 * Most names ParamInfo.siblings lists (the first ones in property order): each
 * parameter lists the others, so a schema of n properties would hold n² names (one of 5,000 would
 * take 5.6 s and 272 MB to read); the selection features read the first 100 properties of a level
 * for words too (libs/search/src/tool-features.ts).
 */
const MAX_SIBLINGS = 100;

/** The first MAX_SIBLINGS names of a list other than `self`. */
function othersOf(names: readonly string[], self: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < names.length && out.length < MAX_SIBLINGS; i++) if (names[i] !== self) out.push(names[i]);
  return out;
}

function readParams(schema: unknown): readonly ParamInfo[] {
  const props = propertiesOf(schema);
  const required = new Set(requiredOf(schema));
  const out: ParamInfo[] = [];
  const descriptions: string[] = [];
  const names = Object.keys(props);
  for (const [name, raw] of Object.entries(props)) {
    const { type, sch, description, parts, enumValues: en } = paramCore(name, raw);
    descriptions.push(description.toLowerCase());
    const items = isObj(sch['items'])
      ? (sch['items'] as Record<string, unknown>)
      : Array.isArray(sch['items']) && isObj((sch['items'] as unknown[])[0])
        ? ((sch['items'] as unknown[])[0] as Record<string, unknown>)
        : undefined;
    out.push({
      name,
      schema: sch,
      type,
      required: required.has(name),
      description,
      enumValues: en,
      hasDefault: 'default' in sch,
      defaultValue: sch['default'],
      describedDefault: describedDefault(description),
      anchors: [...new Set(parts.map((p) => stem(p)))],
      parts,
      descStems: new Set(contentStems(description)),
      semantic: semanticOf(parts, description, sch),
      items,
      itemType: items ? resolveType(items) : undefined,
      siblings: othersOf(names, name),
      objectDescriptions: descriptions,
      order: out.length,
      eitherOr: !required.has(name) && EITHER_OR.test(description),
    });
  }
  return out;
}
