export { WatchedBucket } from './watched-bucket';
export { SnapshotStore } from './snapshot-store';
export type { Snapshot } from './snapshot-store';
export { presentationKey, bindingsKey, capabilityKey, ADMISSION_KEY, ORCHESTRATORS_KEY, MCP_KEYS_KEY, CONFIG_HASH_KEY } from './records';
export type { PresentationRecord, BindingsRecord, CatalogRecord, CollisionRecord, SurfaceRecord } from './records';
export { ConfigView, CONFIG_DOCUMENT_KEY, configDocument } from './config-view';
export type { ConfigDocument, ConfigSource, Override } from './config-view';
