/**
 * The Duo factor's settings in the Management API, from the service's
 * OpenAPI document (`SetGuardianFactorDuoSettingsRequestContent`,
 * `UpdateGuardianFactorDuoSettingsRequestContent` and their responses). The
 * secret key is write-only: no answer carries it (./service.ts).
 */
import { Type, type Static } from '@sinclair/typebox';
import { NO_CONTROL_CHARACTERS } from '../../strings.js';

const member = (description: string, minLength = 0) => Type.Optional(Type.String({ minLength, maxLength: 10000, pattern: NO_CONTROL_CHARACTERS, description }));

export const DuoSettingsBody = Type.Object(
  {
    ikey: member('The integration key of the Duo application.'),
    skey: member('The secret key of the Duo application (write-only).', 1),
    host: member('The API host name of the Duo account, `api-XXXXXXXX.duosecurity.com`.'),
  },
  { additionalProperties: false },
);
export type DuoSettingsBody = Static<typeof DuoSettingsBody>;

export const DuoSettingsResponse = Type.Object(
  { ikey: Type.Optional(Type.String()), host: Type.Optional(Type.String()) },
  { additionalProperties: false },
);
export type DuoSettingsResponse = Static<typeof DuoSettingsResponse>;
