/**
 * Schemas of /api/v2/prompts/{prompt}/partials, from the service's document
 * (its prompt enum; the body an object of screens). The screens, insertion
 * points and partials are checked by src/domain/branding/partials.ts.
 */
import { Type } from '@sinclair/typebox';
import { PARTIAL_PROMPTS } from '../../../domain/branding/partials.js';

export const PartialsParams = Type.Object({
  prompt: Type.Union(PARTIAL_PROMPTS.map((p) => Type.Literal(p)), { description: 'Name of the prompt.' }),
});

const Points = Type.Union([Type.Record(Type.String({ maxLength: 64 }), Type.Unknown()), Type.Null()]);
export const PartialsBody = Type.Record(Type.String({ maxLength: 64 }), Points, { maxProperties: 8 });
export const PartialsResponse = Type.Record(Type.String(), Type.Record(Type.String(), Type.String()));
