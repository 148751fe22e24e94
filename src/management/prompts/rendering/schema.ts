/**
 * Schemas of /api/v2/prompts/rendering and
 * /api/v2/prompts/{prompt}/screen/{screen}/rendering, from the service's
 * document (UpdateAculRequestContent, BulkUpdateAculRequestContent,
 * GetAculResponseContent, ListAculsResponseContent). The prompt and screen
 * names are the document's enums; the pairing of a screen with its prompt,
 * the context entries, head tags and filters are checked by
 * src/domain/branding/rendering.ts with messages that say what is wrong.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { MAX_BULK_CONFIGS, RENDERING_PROMPTS, RENDERING_SCREENS } from '../../../domain/branding/rendering.js';
import { FieldsQuery } from '../../fields.js';
import { OffsetPagingQuery } from '../../paging.js';

const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

const Mode = Type.Union([Type.Literal('advanced'), Type.Literal('standard')], { description: 'Rendering mode' });
export const PromptName = Type.Union(RENDERING_PROMPTS.map((p) => Type.Literal(p)), { description: 'Name of the prompt' });
export const ScreenName = Type.Union(RENDERING_SCREENS.map((s) => Type.Literal(s)), { description: 'Name of the screen' });

export const RenderingParams = Type.Object({ prompt: PromptName, screen: ScreenName });

const AttributeValue = Type.Union([Type.String(), Type.Boolean()]);
/** The request's head tag: checked member by member by the domain (its messages name the tag and attribute). */
const HeadTagIn = Type.Object({ tag: Type.String({ maxLength: 32 }), attributes: Type.Optional(Type.Record(Type.String({ maxLength: 64 }), Type.Unknown())), content: Type.Optional(nullable(Type.String())) }, { additionalProperties: true });
const HeadTagOut = Type.Object({ tag: Type.String(), attributes: Type.Record(Type.String(), AttributeValue) });

const EntityFilter = Type.Object({ id: Type.Optional(Type.String()), metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())) }, { additionalProperties: false });
const FiltersIn = Type.Object(
  {
    match_type: Type.Optional(Type.Union([Type.Literal('includes_any'), Type.Literal('excludes_any')])),
    clients: Type.Optional(Type.Array(EntityFilter)),
    organizations: Type.Optional(Type.Array(EntityFilter)),
    domains: Type.Optional(Type.Array(EntityFilter)),
  },
  { additionalProperties: false },
);
const EntityFilterOut = Type.Object({ id: Type.Optional(Type.String()), metadata: Type.Optional(Type.Record(Type.String(), Type.String())) });
const FiltersOut = Type.Object({
  match_type: Type.Optional(Type.String()),
  clients: Type.Optional(Type.Array(EntityFilterOut)),
  organizations: Type.Optional(Type.Array(EntityFilterOut)),
  domains: Type.Optional(Type.Array(EntityFilterOut)),
});

const settingsIn = {
  rendering_mode: Type.Optional(Mode),
  context_configuration: Type.Optional(nullable(Type.Array(Type.String({ maxLength: 255 })))),
  default_head_tags_disabled: Type.Optional(nullable(Type.Boolean())),
  use_page_template: Type.Optional(nullable(Type.Boolean())),
  head_tags: Type.Optional(nullable(Type.Array(HeadTagIn))),
  filters: Type.Optional(nullable(FiltersIn)),
};
const settingsOut = {
  rendering_mode: Mode,
  context_configuration: Type.Array(Type.String()),
  default_head_tags_disabled: Type.Boolean(),
  use_page_template: Type.Boolean(),
  head_tags: Type.Array(HeadTagOut),
  filters: nullable(FiltersOut),
};

export const UpdateRenderingBody = Type.Object(settingsIn, { additionalProperties: false });
export const UpdateRenderingResponse = Type.Object(settingsOut);

const ScreenSettingsOut = Type.Object({ tenant: Type.String(), prompt: Type.String(), screen: Type.String(), ...settingsOut });
export const GetRenderingResponse = ScreenSettingsOut;

export const BulkRenderingBody = Type.Object(
  { configs: Type.Array(Type.Object({ prompt: PromptName, screen: ScreenName, ...settingsIn }, { additionalProperties: false }), { minItems: 1, maxItems: MAX_BULK_CONFIGS }) },
  { additionalProperties: false },
);
export const BulkRenderingResponse = Type.Object({ configs: Type.Array(Type.Object({ prompt: Type.String(), screen: Type.String(), ...settingsOut })) });

/** A list item may lose members to `fields`. */
const PartialSettings = Type.Partial(ScreenSettingsOut);
export const ListRenderingQuery = Type.Object(
  {
    ...FieldsQuery,
    page: Type.Optional(OffsetPagingQuery.page),
    per_page: Type.Optional(OffsetPagingQuery.per_page),
    include_totals: Type.Optional(OffsetPagingQuery.include_totals),
    prompt: Type.Optional(Type.String({ maxLength: 64, description: 'Name of the prompt to filter by' })),
    screen: Type.Optional(Type.String({ maxLength: 64, description: 'Name of the screen to filter by' })),
    rendering_mode: Type.Optional(Mode),
  },
  { additionalProperties: false },
);
export const ListRenderingResponse = Type.Union([
  Type.Array(PartialSettings),
  Type.Object({ configs: Type.Array(PartialSettings), start: Type.Number(), limit: Type.Number(), total: Type.Number() }),
]);
