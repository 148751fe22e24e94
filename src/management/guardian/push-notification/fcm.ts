import { Type } from '@sinclair/typebox';
import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import type { GuardianPushService } from '../service.js';

const Empty = Type.Object({}, { additionalProperties: false });
const FcmBody = Type.Object({ server_key: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 152 }), Type.Null()])) }, { additionalProperties: false });
const FcmV1Body = Type.Object(
  { server_credentials: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 10000 }), Type.Null()])) },
  { additionalProperties: false },
);

const fcmRoute = (method: 'PUT' | 'PATCH'): ManagementRouteFactory<GuardianPushService> => (_ctx, guardian) => managementRoute({
  method,
  url: '/guardian/factors/push-notification/providers/fcm',
  config: { scopes: ['update:guardian_factors'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: FcmBody, response: { 200: Empty } },
  handler: async (request) => guardian.setFcm(request.tenant, 'fcm', request.body.server_key, method === 'PUT'),
});

const fcmV1Route = (method: 'PUT' | 'PATCH'): ManagementRouteFactory<GuardianPushService> => (_ctx, guardian) => managementRoute({
  method,
  url: '/guardian/factors/push-notification/providers/fcmv1',
  config: { scopes: ['update:guardian_factors'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: FcmV1Body, response: { 200: Empty } },
  handler: async (request) => guardian.setFcm(request.tenant, 'fcmv1', request.body.server_credentials, method === 'PUT'),
});

/** PUT /api/v2/guardian/factors/push-notification/providers/fcm `{server_key}` → 200 `{}`; the key sealed, never read back. */
export const setFcmProvider = fcmRoute('PUT');
/** PATCH …/providers/fcm: as PUT, an absent `server_key` keeping the one set. */
export const updateFcmProvider = fcmRoute('PATCH');
/** PUT …/providers/fcmv1 `{server_credentials}` (a service account's JSON key) → 200 `{}`. */
export const setFcmV1Provider = fcmV1Route('PUT');
/** PATCH …/providers/fcmv1: as PUT, an absent member keeping the one set. */
export const updateFcmV1Provider = fcmV1Route('PATCH');
