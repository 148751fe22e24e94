/**
 * Schemas of /api/v2/prompts and its custom texts, from the service's
 * OpenAPI document (UpdateSettingsRequestContent, GetSettingsResponseContent,
 * SetsCustomTextsByLanguageRequestContent). The custom texts' screens and
 * keys are checked against the catalogue Gatehouse renders (./service.ts).
 */
import { Type } from '@sinclair/typebox';

const Experience = Type.Union([Type.Literal('new'), Type.Literal('classic')]);

export const UpdatePromptSettingsBody = Type.Object(
  {
    universal_login_experience: Type.Optional(Experience),
    identifier_first: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
    webauthn_platform_first_factor: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const PromptSettingsResponse = Type.Object({
  universal_login_experience: Experience,
  identifier_first: Type.Boolean(),
  webauthn_platform_first_factor: Type.Boolean(),
});

export const CustomTextParams = Type.Object({
  prompt: Type.String({ minLength: 1, maxLength: 64, description: 'Name of the prompt.' }),
  language: Type.String({ minLength: 1, maxLength: 16, description: 'Language of the texts.' }),
});

/** screen → key → text; the catalogue bounds the screens and keys, MAX_CUSTOM_TEXT each text. */
const Texts = Type.Record(Type.String({ maxLength: 64 }), Type.Record(Type.String({ maxLength: 64 }), Type.String()));

export const CustomTextBody = Type.Record(Type.String({ maxLength: 64 }), Type.Record(Type.String({ maxLength: 64 }), Type.Unknown()), { maxProperties: 32 });

export const CustomTextResponse = Texts;
