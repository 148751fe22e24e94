/**
 * Job shapes, from the service's OpenAPI document (`CreateImportUsersResponseContent`,
 * `GetJobResponseContent`, `GetJobErrorResponseContent`,
 * `GetJobGenericErrorResponseContent`, `CreateExportUsersRequestContent`,
 * `CreateVerificationEmailRequestContent`).
 */
import { Type } from '@sinclair/typebox';
import { FreeObject } from '../../platform/http/schema-types.js';
import { NO_CONTROL_CHARACTERS } from '../strings.js';

const Summary = Type.Object(
  {
    failed: Type.Integer({ description: 'Number of failed operations.' }),
    updated: Type.Integer({ description: 'Number of updated records.' }),
    inserted: Type.Integer({ description: 'Number of inserted records.' }),
    total: Type.Integer({ description: 'Total number of operations.' }),
  },
  { additionalProperties: false },
);

export const JobResponse = Type.Object(
  {
    status: Type.String({ description: 'Status of this job.' }),
    type: Type.String({ description: 'Type of job this is.' }),
    created_at: Type.String({ description: 'When this job was created.' }),
    id: Type.String({ description: 'ID of this job.' }),
    connection_id: Type.Optional(Type.String({ description: 'connection_id of the connection this job uses.' })),
    connection: Type.Optional(Type.String({ description: 'Name of the connection this job uses.' })),
    external_id: Type.Optional(Type.String({ description: 'Customer-defined ID.' })),
    upsert: Type.Optional(Type.Boolean()),
    location: Type.Optional(Type.String({ description: 'URL to download the result of this job.' })),
    percentage_done: Type.Optional(Type.Integer({ description: 'Completion percentage of this job.' })),
    time_left_seconds: Type.Optional(Type.Integer({ description: 'Estimated time remaining before job completes.' })),
    format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('csv')])),
    fields: Type.Optional(Type.Array(Type.Object({ name: Type.String(), export_as: Type.Optional(Type.String()) }, { additionalProperties: false }))),
    limit: Type.Optional(Type.Integer()),
    status_details: Type.Optional(Type.String({ description: 'Status details.' })),
    summary: Type.Optional(Summary),
  },
  { additionalProperties: false },
);

export const JobErrorsResponse = Type.Array(
  Type.Object(
    {
      user: FreeObject({ description: 'The user as given in the file (password hashes left out).' }, null),
      errors: Type.Array(
        Type.Object({ code: Type.String(), message: Type.String(), path: Type.String() }, { additionalProperties: false }),
        { description: 'Errors importing the user.' },
      ),
    },
    { additionalProperties: false },
  ),
);

export const JobParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, pattern: NO_CONTROL_CHARACTERS, description: 'ID of the job.' }) });

const connectionId = Type.String({ pattern: '^con_[A-Za-z0-9]{16}$', description: 'connection_id of the connection from which users will be exported.' });

export const ExportBody = Type.Object(
  {
    connection_id: Type.Optional(connectionId),
    format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('csv')], { description: 'Format of the file. Must be `json` or `csv`.' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'Limit the number of records.' })),
    fields: Type.Optional(
      Type.Array(
        Type.Object(
          {
            name: Type.String({ minLength: 1, maxLength: 256, pattern: '^[A-Za-z0-9_.\\[\\]-]+$', description: 'Name of the field in the profile.' }),
            export_as: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'Title of the column in the exported CSV.' })),
          },
          { additionalProperties: false },
        ),
        { maxItems: 100, description: 'List of fields to be included in the CSV. Defaults to a predefined set of fields.' },
      ),
    ),
  },
  { additionalProperties: false },
);

export const VerificationEmailBody = Type.Object(
  {
    user_id: Type.String({ minLength: 1, maxLength: 255, pattern: NO_CONTROL_CHARACTERS, description: 'user_id of the user to send the verification email to.' }),
    client_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'client_id of the client (application). If no value provided, the global Client ID will be used.' })),
    identity: Type.Optional(
      Type.Object(
        {
          user_id: Type.String({ minLength: 1, maxLength: 255, description: 'user_id of the identity to be verified.' }),
          provider: Type.String({ minLength: 1, maxLength: 64, description: 'Identity provider name of the identity.' }),
        },
        { additionalProperties: false },
      ),
    ),
    organization_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: '(Optional) Organization ID – the ID of the Organization.' })),
  },
  { additionalProperties: false },
);
