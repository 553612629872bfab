import type { PrincipalConfig, ToolsurfaceConfig } from '@toolsurface/core';
import type { WatchedBucket } from './watched-bucket';
import {
  ADMISSION_KEY,
  ORCHESTRATORS_KEY,
  MCP_KEYS_KEY,
  bindingsKey,
  capabilityKey,
  presentationKey,
  type BindingsRecord,
  type PresentationRecord,
} from './records';

/** Config-bucket key of the applied declarative config, one record (ConfigDocument). */
export const CONFIG_DOCUMENT_KEY = 'config.document';

/**
 * The declarative config as applied: one record, so that a new config reaches every reader whole,
 * in one KV message, never half-applied (a capability gone while a binding still names it, a deny
 * rule relaxed before the binding it protected is removed), and so that two applies racing on two
 * replicas leave one config or the other, never a mix.
 */
export interface ConfigDocument extends ToolsurfaceConfig {
  /** 1 for the first document, one more for each apply after it (applies are compare-and-set, so seqs never repeat). */
  seq: number;
  /**
   * `<kind>.<id>` of every principal an apply named or dropped, with the seq of the last such
   * apply: API changes made before it no longer count (see Override).
   */
  touched: Record<string, number>;
  /** Milliseconds since the Unix epoch. */
  appliedAtMs: number;
}

/**
 * A presentation or bindings record set through the API (SetPresentation, SetBindings), kept as its
 * own key beside the document. `base` is the seq of the document it was made on (0 before any
 * document, and for records of the layout before the document). It counts while `base` is at
 * least the seq of the last apply that named or dropped the principal: a later apply that names
 * the principal replaces it, one that drops a principal the config named drops it, and neither
 * can ever bring it back (the rules of the layout before the document, without relying on any
 * clean-up).
 */
export type Override<T> = T & { base?: number };

/** What readers of the config bucket need: the mirror's get/entries/onChange, by record key. */
export interface ConfigSource {
  get(key: string): unknown;
  entries(prefix?: string): Array<[string, unknown]>;
  onChange(fn: (key: string, value: unknown) => void): void;
}

const OVERRIDE_PREFIXES = ['presentation.', 'bindings.'] as const;

function isDocument(v: unknown): v is ConfigDocument {
  if (typeof v !== 'object' || v === null) return false;
  const d = v as Partial<ConfigDocument>;
  return (
    typeof d.seq === 'number' &&
    typeof d.touched === 'object' &&
    d.touched !== null &&
    typeof d.capabilities === 'object' &&
    d.capabilities !== null &&
    Array.isArray(d.principals)
  );
}

const indexes = new WeakMap<ConfigDocument, Map<string, PrincipalConfig>>();

/** The document's principals by `<kind>.<id>`, built once per document. */
function principalIndex(doc: ConfigDocument): Map<string, PrincipalConfig> {
  let index = indexes.get(doc);
  if (!index) {
    index = new Map(doc.principals.map((p) => [`${p.kind}.${p.id}`, p]));
    indexes.set(doc, index);
  }
  return index;
}

/** Whether an override record of principal `who` counts under `doc` (see Override). */
function counts(doc: ConfigDocument, who: { kind: string; id: string }, record: object): boolean {
  const base = (record as Override<object>).base;
  return (typeof base === 'number' ? base : 0) >= (doc.touched[`${who.kind}.${who.id}`] ?? 0);
}

function principalOf(key: string): { kind: string; id: string } | undefined {
  for (const p of OVERRIDE_PREFIXES) {
    if (!key.startsWith(p)) continue;
    const rest = key.slice(p.length);
    const dot = rest.indexOf('.');
    if (dot <= 0) return undefined;
    return { kind: rest.slice(0, dot), id: rest.slice(dot + 1) };
  }
  return undefined;
}

/**
 * The config bucket as its readers see it: the records `admission`, `orchestrators`, `mcp_keys`,
 * `capability.<name>`, `presentation.<kind>.<id>` and `bindings.<kind>.<id>`, derived from the applied ConfigDocument and the API's override records.
 *
 * - With a document: admission, orchestrators and capabilities come from it alone; a principal's
 *   presentation and bindings come from its override record when that record is still valid (see
 *   Override), else from the document.
 * - Without one (a bucket written before the document existed, or by a test that writes records
 *   directly), the bucket's own records are read as they are.
 *
 * onChange fires once per record whose value changed, after the whole new document is in place,
 * so a listener that reads other records in its callback sees the new config throughout.
 */
export class ConfigView implements ConfigSource {
  private readonly listeners: Array<(key: string, value: unknown) => void> = [];

  constructor(readonly bucket: WatchedBucket<unknown>) {
    let before = this.document();
    bucket.onChange((key) => {
      if (key === CONFIG_DOCUMENT_KEY) {
        const after = this.document();
        const keys = new Set([...this.recordKeys(before), ...this.recordKeys(after)]);
        const changed = [...keys].filter((k) => JSON.stringify(this.read(k, before)) !== JSON.stringify(this.read(k, after)));
        before = after;
        for (const k of changed) this.emit(k);
        return;
      }
      // Only what the document does not own passes through while one is applied.
      if (before === undefined || principalOf(key) !== undefined) this.emit(key);
    });
  }

  /** The applied document, or undefined (records read as they are). */
  document(): ConfigDocument | undefined {
    const d = this.bucket.get(CONFIG_DOCUMENT_KEY);
    return isDocument(d) ? d : undefined;
  }

  onChange(fn: (key: string, value: unknown) => void): void {
    this.listeners.push(fn);
  }

  get(key: string): unknown {
    return this.read(key, this.document());
  }

  entries(prefix = ''): Array<[string, unknown]> {
    const doc = this.document();
    const out: Array<[string, unknown]> = [];
    for (const k of this.recordKeys(doc)) {
      if (!k.startsWith(prefix)) continue;
      const v = this.read(k, doc);
      if (v !== undefined) out.push([k, v]);
    }
    return out;
  }

  /** The override record to store for a principal now, on the document as mirrored (its `base`: see Override). */
  overrideFor<T extends object>(record: T): Override<T> {
    return { ...record, base: this.document()?.seq ?? 0 };
  }

  /**
   * Whether `record`, stored at `key`, is an override record that no longer counts under the
   * applied document (see Override); false for any other record, and without a document.
   */
  stale(key: string, record: unknown): boolean {
    const doc = this.document();
    const who = principalOf(key);
    return doc !== undefined && who !== undefined && !(typeof record === 'object' && record !== null && counts(doc, who, record));
  }

  private emit(key: string): void {
    const v = this.get(key);
    for (const l of this.listeners) l(key, v);
  }

  /** Every record key that has a value under `doc` (or in the bucket without one). */
  private recordKeys(doc: ConfigDocument | undefined): string[] {
    const raw = this.bucket.entries().map(([k]) => k);
    if (!doc) return raw.filter((k) => k !== CONFIG_DOCUMENT_KEY);
    const keys = new Set<string>([ADMISSION_KEY, ORCHESTRATORS_KEY, MCP_KEYS_KEY]);
    for (const name of Object.keys(doc.capabilities)) keys.add(capabilityKey(name));
    for (const p of doc.principals) {
      keys.add(presentationKey(p.kind, p.id));
      keys.add(bindingsKey(p.kind, p.id));
    }
    for (const k of raw) if (principalOf(k)) keys.add(k);
    return [...keys];
  }

  private read(key: string, doc: ConfigDocument | undefined): unknown {
    if (!doc) return key === CONFIG_DOCUMENT_KEY ? undefined : this.bucket.get(key);
    if (key === ADMISSION_KEY) return doc.admission;
    if (key === ORCHESTRATORS_KEY) return doc.orchestrators;
    // A document written before MCP keys existed has none.
    if (key === MCP_KEYS_KEY) return doc.mcpKeys ?? [];
    if (key.startsWith('capability.')) {
      const name = key.slice('capability.'.length);
      return Object.hasOwn(doc.capabilities, name) ? doc.capabilities[name] : undefined;
    }
    const who = principalOf(key);
    if (!who) return undefined;
    const named = principalIndex(doc).get(`${who.kind}.${who.id}`);
    const override = this.bucket.get(key) as Override<PresentationRecord | BindingsRecord> | undefined;
    if (typeof override === 'object' && override !== null && counts(doc, who, override)) {
      const { base: _base, ...record } = override;
      return record;
    }
    if (!named) return undefined;
    return key.startsWith('presentation.')
      ? ({ mode: named.mode, autonomy: named.autonomy } satisfies PresentationRecord)
      : ({ capabilities: named.capabilities } satisfies BindingsRecord);
  }
}

/**
 * The document of an apply of `cfg` after `previous` (undefined for the first). It touches every
 * principal `cfg` names and every one `previous` named that `cfg` drops; the first document also
 * touches `legacyNamed`, the principals the config of the layout before the document named (their
 * records there were the config's, not API changes).
 */
export function configDocument(
  cfg: ToolsurfaceConfig,
  previous: ConfigDocument | undefined,
  appliedAtMs: number,
  legacyNamed: ReadonlyArray<{ kind: string; id: string }> = [],
): ConfigDocument {
  const seq = (previous?.seq ?? 0) + 1;
  const touched: Record<string, number> = { ...previous?.touched };
  const principals: PrincipalConfig[] = cfg.principals.map((p) => ({
    kind: p.kind,
    id: p.id,
    mode: p.mode,
    autonomy: p.autonomy,
    capabilities: [...p.capabilities],
  }));
  for (const p of [...principals, ...(previous?.principals ?? []), ...(previous ? [] : legacyNamed)]) touched[`${p.kind}.${p.id}`] = seq;
  return {
    capabilities: cfg.capabilities,
    principals,
    admission: cfg.admission,
    orchestrators: cfg.orchestrators,
    mcpKeys: cfg.mcpKeys ?? [],
    hash: cfg.hash,
    seq,
    touched,
    appliedAtMs,
  };
}
