/**
 * The SMS factor's provider and templates in the Management API, from the
 * service's OpenAPI document (`…ProviderSmsTwilio…Content`,
 * `…FactorSmsTemplates…Content`). The auth token is write-only: GET never
 * returns it, PUT echoes it only when the request carried it.
 */
import { Type, type Static } from '@sinclair/typebox';

const nullable = (options: { minLength: number; maxLength: number; description: string }) => Type.Unsafe<string | null>({ ...options, type: ['string', 'null'] });

const twilio = {
  from: nullable({ minLength: 0, maxLength: 64, description: 'From number' }),
  messaging_service_sid: nullable({ minLength: 1, maxLength: 1000, description: 'Copilot SID' }),
  auth_token: nullable({ minLength: 1, maxLength: 1000, description: 'Twilio Authentication token' }),
  sid: nullable({ minLength: 1, maxLength: 1000, description: 'Twilio SID' }),
};

export const TwilioBody = Type.Object(
  { from: Type.Optional(twilio.from), messaging_service_sid: Type.Optional(twilio.messaging_service_sid), auth_token: Type.Optional(twilio.auth_token), sid: Type.Optional(twilio.sid) },
  { additionalProperties: false },
);
export type TwilioBody = Static<typeof TwilioBody>;
export const TwilioResponse = TwilioBody;

export const TwilioReadResponse = Type.Object(
  { from: Type.Optional(twilio.from), messaging_service_sid: Type.Optional(twilio.messaging_service_sid), sid: Type.Optional(twilio.sid) },
  { additionalProperties: false },
);
export type TwilioReadResponse = Static<typeof TwilioReadResponse>;

export const SmsTemplatesBody = Type.Object(
  {
    enrollment_message: Type.String({ minLength: 1, maxLength: 1000, description: 'Message sent to the user when they are invited to enroll with a phone number.' }),
    verification_message: Type.String({ minLength: 1, maxLength: 1000, description: 'Message sent to the user when they are prompted to verify their account.' }),
  },
  { additionalProperties: false },
);
export type SmsTemplatesBody = Static<typeof SmsTemplatesBody>;
