/**
 * Schemas of /api/v2/branding, from the service's OpenAPI document
 * (UpdateBrandingRequestContent, GetBrandingResponseContent). The document's
 * formats (`html-color`, `strict-https-uri`) are checked by the service
 * (./service.ts) so the messages can name the property.
 */
import { Type } from '@sinclair/typebox';
import { MAX_BRANDING_URL } from '../../domain/branding/branding.js';

const Url = Type.String({ maxLength: MAX_BRANDING_URL });
const NullableUrl = Type.Union([Url, Type.Null()]);
const Color = Type.String({ maxLength: 7 });
/** A colour, or a linear gradient `{type, start, end, angle_deg}` (checked member by member by the service). */
const PageBackground = Type.Union([Color, Type.Object({}, { additionalProperties: true, maxProperties: 4 }), Type.Null()]);

export const UpdateBrandingBody = Type.Object(
  {
    colors: Type.Optional(
      Type.Union([
        Type.Object({ primary: Type.Optional(Type.Union([Color, Type.Null()])), page_background: Type.Optional(PageBackground) }, { additionalProperties: false, minProperties: 1 }),
        Type.Null(),
      ]),
    ),
    favicon_url: Type.Optional(NullableUrl),
    logo_url: Type.Optional(NullableUrl),
    font: Type.Optional(Type.Union([Type.Object({ url: Type.Optional(NullableUrl) }, { additionalProperties: false, minProperties: 1 }), Type.Null()])),
  },
  { additionalProperties: false, minProperties: 1 },
);

const Gradient = Type.Object({ type: Type.String(), start: Type.String(), end: Type.String(), angle_deg: Type.Number() });

export const BrandingResponse = Type.Object({
  colors: Type.Optional(Type.Object({ primary: Type.Optional(Type.String()), page_background: Type.Optional(Type.Union([Type.String(), Gradient])) })),
  favicon_url: Type.Optional(Type.String()),
  logo_url: Type.Optional(Type.String()),
  font: Type.Optional(Type.Object({ url: Type.Optional(Type.String()) })),
});
