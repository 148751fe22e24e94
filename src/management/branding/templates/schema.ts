/**
 * Schemas of /api/v2/branding/templates/universal-login, from the service's
 * document: PUT takes `{template}` or the template as a JSON string; GET
 * answers `{body}`. The schema bounds the string at four times the service's
 * limit; the service (../../../domain/branding/page-template.ts) refuses what
 * is over 102,400 characters with the service's own message.
 */
import { Type } from '@sinclair/typebox';
import { MAX_TEMPLATE_LENGTH } from '../../../domain/branding/page-template.js';

const Template = Type.String({ maxLength: 4 * MAX_TEMPLATE_LENGTH });
export const PutTemplateBody = Type.Union([Template, Type.Object({ template: Template }, { additionalProperties: false })]);
export const TemplateResponse = Type.Object({ body: Type.String() });
