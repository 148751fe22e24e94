/**
 * Schemas of custom token exchange profiles, from the service's OpenAPI
 * document (`CreateTokenExchangeProfileRequestContent`,
 * `UpdateTokenExchangeProfileRequestContent`, `TokenExchangeProfile`).
 */
import { Type, type Static } from '@sinclair/typebox';
import { CheckpointQuery } from '../lists.js';
import { NO_CONTROL_CHARACTERS } from '../strings.js';

const Name = Type.String({ minLength: 3, maxLength: 50, pattern: NO_CONTROL_CHARACTERS, description: 'Friendly name of this profile.' });
const SubjectTokenType = Type.String({ minLength: 8, maxLength: 100, pattern: '^[A-Za-z][A-Za-z0-9+.-]*:[^\\s]+$', description: 'Subject token type for this profile. This must be a URI.' });

export const CreateProfileBody = Type.Object(
  {
    name: Name,
    subject_token_type: SubjectTokenType,
    action_id: Type.String({ minLength: 1, maxLength: 36, pattern: NO_CONTROL_CHARACTERS, description: 'The ID of the Custom Token Exchange action to execute for this profile.' }),
    // Checked by the service, to answer the document's message.
    type: Type.String({ maxLength: 64 }),
  },
  { additionalProperties: false },
);
export type CreateProfileBody = Static<typeof CreateProfileBody>;

export const UpdateProfileBody = Type.Object(
  { name: Type.Optional(Name), subject_token_type: Type.Optional(SubjectTokenType) },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateProfileBody = Static<typeof UpdateProfileBody>;

export const ProfileResponse = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    subject_token_type: Type.String(),
    action_id: Type.String(),
    type: Type.String(),
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  { additionalProperties: false },
);
export type ProfileResponse = Static<typeof ProfileResponse>;

export const ProfileListResponse = Type.Object({ token_exchange_profiles: Type.Array(ProfileResponse), next: Type.Optional(Type.String()) }, { additionalProperties: false });
export const ProfileListQuery = Type.Object(CheckpointQuery, { additionalProperties: false });
export type ProfileListQuery = Static<typeof ProfileListQuery>;
export const ProfileParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, pattern: NO_CONTROL_CHARACTERS }) });
