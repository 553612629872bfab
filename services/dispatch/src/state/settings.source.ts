import {
  hiddenByRule,
  readOrchestrators,
  type AdmissionPolicy,
  type Autonomy,
  type OrchestratorConfig,
  type PrincipalRef,
} from '@toolsurface/core';
import {
  ADMISSION_KEY,
  ORCHESTRATORS_KEY,
  bindingsKey,
  presentationKey,
  type BindingsRecord,
  type CatalogRecord,
  type ConfigSource,
  type PresentationRecord,
  type WatchedBucket,
} from '@toolsurface/state';
import type { Logger } from '@toolsurface/platform';
import { boundToolsNamed, DEFAULT_ADMISSION_POLICY, parseAdmissionPolicy } from '../domain/catalog';
import type { SettingsSource } from '../domain/ports';

const DENY_ALL: AdmissionPolicy = Object.freeze({ default: 'deny', rules: [] }) as AdmissionPolicy;

/** Current admission policy, autonomy and bindings from the watched config and catalog buckets. */
export class BucketSettings implements SettingsSource {
  private policy: AdmissionPolicy | undefined;
  /** The orchestrators as last read (null: not read since the key changed). */
  private callers: OrchestratorConfig[] | undefined | null = null;

  constructor(
    private readonly config: ConfigSource,
    private readonly catalog: WatchedBucket<CatalogRecord>,
    private readonly logger: Logger,
    private readonly authRequired = false,
  ) {
    config.onChange((key) => {
      if (key === ADMISSION_KEY) this.policy = undefined;
      if (key === ORCHESTRATORS_KEY) this.callers = null;
    });
  }

  admissionPolicy(): AdmissionPolicy {
    if (this.policy) return this.policy;
    const raw = this.config.get(ADMISSION_KEY);
    if (raw === undefined) {
      this.policy = DEFAULT_ADMISSION_POLICY;
    } else {
      const parsed = parseAdmissionPolicy(raw);
      // A policy we cannot read must not open the gate: refuse every call until it is fixed.
      if (!parsed) this.logger.error({ key: ADMISSION_KEY }, 'stored admission policy is malformed; refusing every call');
      this.policy = parsed ?? DENY_ALL;
    }
    return this.policy;
  }

  /**
   * The configured orchestrators: empty means caller authentication is off (only without
   * AUTH_REQUIRED); undefined (malformed record, or none while required) refuses every caller.
   */
  orchestrators(): OrchestratorConfig[] | undefined {
    // Checked once per change of the key, not on every call.
    if (this.callers === null) this.callers = readOrchestrators(this.config.get(ORCHESTRATORS_KEY), this.authRequired);
    return this.callers;
  }

  autonomy(principal: PrincipalRef): Autonomy | undefined {
    const rec = this.config.get(presentationKey(principal.kind, principal.id)) as PresentationRecord | undefined;
    return rec?.autonomy === 'supervised' || rec?.autonomy === 'autonomous' ? rec.autonomy : undefined;
  }

  isBoundToolName(principal: PrincipalRef, name: string): boolean {
    const policy = this.admissionPolicy();
    return this.boundTools(principal, name).some((t) => hiddenByRule(principal, t.capability, t.tool, policy) === undefined);
  }

  hiddenBy(principal: PrincipalRef, name: string): string | undefined {
    const policy = this.admissionPolicy();
    let rule: string | undefined;
    for (const t of this.boundTools(principal, name)) {
      const hidden = hiddenByRule(principal, t.capability, t.tool, policy);
      if (hidden === undefined) return undefined;
      rule ??= hidden;
    }
    return rule;
  }

  private boundTools(principal: PrincipalRef, name: string): Array<{ capability: string; tool: string }> {
    const bindings = this.config.get(bindingsKey(principal.kind, principal.id)) as BindingsRecord | undefined;
    const caps = Array.isArray(bindings?.capabilities) ? bindings.capabilities : [];
    return boundToolsNamed(name, caps, (c) => this.catalog.get(c));
  }
}
