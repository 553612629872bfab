// Generated code lives in ./gen and is never edited: change proto/toolsurface/v1 and run `npm run proto:gen`.
export { PrincipalKind, Principal, PresentationMode, ResolvedMode, Autonomy, ToolKind, Tool } from './gen/toolsurface/v1/common';
export {
  SurfaceServiceService,
  SurfaceServiceClient,
  OpenSurfaceRequest,
  OpenSurfaceResponse,
  GetSurfaceRequest,
  GetSurfaceResponse,
  CloseSurfaceRequest,
  CloseSurfaceResponse,
  NameCollision,
  Surface,
} from './gen/toolsurface/v1/surface';
export type { SurfaceServiceServer } from './gen/toolsurface/v1/surface';
export {
  PresentationServiceService,
  PresentationServiceClient,
  Presentation,
  GetPresentationRequest,
  GetPresentationResponse,
  SetPresentationRequest,
  SetPresentationResponse,
  GetBindingsRequest,
  GetBindingsResponse,
  SetBindingsRequest,
  SetBindingsResponse,
  ApplyConfigRequest,
  ApplyConfigResponse,
  ListPrincipalsRequest,
  ListPrincipalsResponse,
  PrincipalSummary,
  GetEffectiveConfigRequest,
  GetEffectiveConfigResponse,
  PreviewPresentationRequest,
  PreviewPresentationResponse,
  ModePreview,
  HiddenTool,
} from './gen/toolsurface/v1/presentation';
export type { PresentationServiceServer } from './gen/toolsurface/v1/presentation';
export {
  DiscoveryServiceService,
  DiscoveryServiceClient,
  DiscoverToolsRequest,
  DiscoverToolsResponse,
  ToolHit,
  GetToolSchemaRequest,
  GetToolSchemaResponse,
} from './gen/toolsurface/v1/discovery';
export type { DiscoveryServiceServer } from './gen/toolsurface/v1/discovery';
export {
  DispatchServiceService,
  DispatchServiceClient,
  CallToolRequest,
  CallToolResponse,
  UnifiedCandidate,
  UnifiedMetadata,
} from './gen/toolsurface/v1/dispatch';
export type { DispatchServiceServer } from './gen/toolsurface/v1/dispatch';
export { UnifiedServiceService, UnifiedServiceClient, MapRequestRequest, MapRequestResponse } from './gen/toolsurface/v1/unified';
export type { UnifiedServiceServer } from './gen/toolsurface/v1/unified';
export {
  SnapshotCreated,
  SurfaceOpened,
  SurfaceClosed,
  PresentationChanged,
  AdmissionDecision,
  ToolCalled,
  CatalogChanged,
} from './gen/toolsurface/v1/events';
