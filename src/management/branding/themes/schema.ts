/**
 * Schemas of /api/v2/branding/themes: the service's published request and
 * response (extracted with every $ref resolved into
 * oas-schemas.generated.json by scripts/extract-oas-schemas.mjs; PATCH takes
 * the create schema, every operation answers with the theme). One rule is
 * layered on the document's: its three URL members (`fonts.font_url`,
 * `page_background.background_image_url`, `widget.logo_url`) carry a pattern
 * written for a regular-expression dialect without Unicode mode, which the
 * validator (Unicode mode) cannot compile; they are checked instead as the
 * pattern means them: empty, or an absolute https URL, at most
 * MAX_BRANDING_URL characters (the pages load them under their CSP).
 */
import { Type } from '@sinclair/typebox';
import { MAX_BRANDING_URL } from '../../../domain/branding/branding.js';
import type { Theme, ThemeBody } from '../../../domain/branding/theme.js';
import type { SchemaNode } from '../../json-schema.js';
import oas from './oas-schemas.generated.json' with { type: 'json' };

const generated = oas as unknown as { schemas: Record<string, SchemaNode> };

const URL_MEMBERS: ReadonlyArray<readonly [string, string]> = [
  ['fonts', 'font_url'],
  ['page_background', 'background_image_url'],
  ['widget', 'logo_url'],
];

function withUrlFormats(schema: SchemaNode): SchemaNode {
  const copy = structuredClone(schema);
  for (const [group, member] of URL_MEMBERS) {
    const node = copy.properties?.[group]?.properties?.[member];
    if (!node) throw new Error(`the theme schema has no ${group}.${member}`);
    delete node.pattern;
    node.format = 'absolute-https-uri-or-empty';
    node.maxLength = MAX_BRANDING_URL;
  }
  return copy;
}

export const ThemeBodySchema = Type.Unsafe<ThemeBody>(withUrlFormats(generated.schemas.CreateBrandingThemeRequestContent!));
export const ThemeResponse = Type.Unsafe<Theme>(withUrlFormats(generated.schemas.GetBrandingThemeResponseContent!));
export const ThemeIdParams = Type.Object({ themeId: Type.String({ minLength: 1, maxLength: 32, description: 'The ID of the theme' }) });
