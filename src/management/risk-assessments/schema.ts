/** Request and response shapes of /api/v2/risk-assessments/* (the service's OpenAPI document's components, written out). */
import { Type } from '@sinclair/typebox';

export const RiskAssessmentSettings = Type.Object(
  { enabled: Type.Boolean({ description: 'Whether or not risk assessment is enabled.' }) },
  { additionalProperties: false },
);

export const NewDeviceSettings = Type.Object(
  { remember_for: Type.Integer({ minimum: 1, maximum: 365, description: 'Length of time to remember devices for, in days.' }) },
  { additionalProperties: false },
);

/** POST /users/{id}/risk-assessments/clear (`ClearAssessorsRequestContent`). */
export const ClearAssessorsBody = Type.Object(
  {
    connection: Type.String({ minLength: 1, maxLength: 128, pattern: '^[a-zA-Z0-9](-[a-zA-Z0-9]|[a-zA-Z0-9])*$', description: 'The name of the connection containing the user whose assessors should be cleared.' }),
    assessors: Type.Array(Type.Union([Type.Literal('new-device')]), { minItems: 1, maxItems: 16, description: 'List of assessors to clear.' }),
  },
  { additionalProperties: false },
);

export const UserIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 1024 }) }, { additionalProperties: false });
