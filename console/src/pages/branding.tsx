/**
 * Branding (/api/v2/branding): logo, primary colour and page background,
 * with a live preview of the real login page (/admin/preview/login renders
 * it with the values given in its query); the login prompt's custom text
 * (/api/v2/prompts/login/custom-text/{language}); the page template
 * (/api/v2/branding/templates/universal-login) and the login screen's
 * partials (/api/v2/prompts/login/partials), each saved as the Management
 * API checks it, its refusal shown under the form; and the theme
 * (/api/v2/branding/themes): created from the service's defaults, its main
 * colours and shapes edited, the saved login page shown beside it.
 */
import { useEffect, useId, useState } from 'preact/hooks';
import { ApiError, seg } from '../api.js';
import { ActionButton, Field, Form, LoadState, PageHeader, Select, useApi, useLoad } from '../ui.js';

interface Branding {
  logo_url?: string;
  colors?: { primary?: string; page_background?: string | object };
}

const HEX = /^#[0-9a-fA-F]{6}$/;
const DEFAULT_PRIMARY = '#635dff';
const DEFAULT_BACKGROUND = '#f4f4f6';
/** The languages of the hosted pages (src/domain/branding/texts/). */
const LANGUAGES = ['en', 'fr', 'de', 'es'];

export function BrandingPage() {
  const api = useApi();
  const branding = useLoad(() => api.get<Branding>('/branding'), []);
  return (
    <>
      <PageHeader title="Branding" />
      <LoadState loaded={branding}>{(b) => <BrandingEditor initial={b} />}</LoadState>
      <CustomText />
      <ThemeEditor />
      <PageTemplate />
      <LoginPartials />
    </>
  );
}

/** Waits for typing to pause before the preview reloads. */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [JSON.stringify(value)]);
  return settled;
}

function BrandingEditor({ initial }: { initial: Branding }) {
  const api = useApi();
  const background = typeof initial.colors?.page_background === 'string' ? initial.colors.page_background : DEFAULT_BACKGROUND;
  const [logoUrl, setLogoUrl] = useState(initial.logo_url ?? '');
  const [primary, setPrimary] = useState(initial.colors?.primary ?? DEFAULT_PRIMARY);
  const [pageBackground, setPageBackground] = useState(background);
  const [lang, setLang] = useState('en');
  const preview = useSettled({ primary, page_background: pageBackground, logo_url: logoUrl, lang }, 300);
  const query = new URLSearchParams();
  if (HEX.test(preview.primary)) query.set('primary', preview.primary);
  if (HEX.test(preview.page_background)) query.set('page_background', preview.page_background);
  // The preview refuses what PATCH /branding would (a logo not on https): a half-typed URL is left out.
  if (/^https:\/\/[^/]+/.test(preview.logo_url)) query.set('logo_url', preview.logo_url);
  query.set('lang', preview.lang);
  return (
    <div class="split">
      <Form
        title="Universal Login look"
        submit="Save branding"
        onSubmit={async () => {
          await api.patch('/branding', { logo_url: logoUrl || null, colors: { primary, page_background: pageBackground } });
          return 'Branding saved.';
        }}
      >
        <Field label="Logo URL" type="url" value={logoUrl} onValue={setLogoUrl} placeholder="https://example.com/logo.png" />
        <ColourField label="Primary colour" value={primary} onValue={setPrimary} />
        <ColourField label="Page background" value={pageBackground} onValue={setPageBackground} />
        <Select label="Preview language" value={lang} onValue={setLang} options={LANGUAGES} />
      </Form>
      <section class="card preview" aria-labelledby="preview-title">
        <h2 id="preview-title">Preview</h2>
        <iframe title="Login page preview" src={`/admin/preview/login?${query}`} />
      </section>
    </div>
  );
}

/** A colour as a picker and as hex text, kept in step. */
function ColourField({ label, value, onValue }: { label: string; value: string; onValue: (value: string) => void }) {
  return (
    <div class="colour">
      <Field label={label} value={value} onValue={onValue} pattern="#[0-9a-fA-F]{6}" hint="Hex, such as #0059d6." />
      <Field label={`${label} picker`} type="color" value={HEX.test(value) ? value : '#000000'} onValue={onValue} />
    </div>
  );
}

/** The login screen's texts an operator may override, and their labels. */
const TEXT_KEYS: [string, string][] = [
  ['title', 'Title'],
  ['description', 'Description'],
  ['buttonText', 'Button text'],
];

function CustomText() {
  const api = useApi();
  const [lang, setLang] = useState('en');
  const text = useLoad(() => api.get<{ login?: Record<string, string> }>(`/prompts/login/custom-text/${seg(lang)}`), [lang]);
  return (
    <section class="card" aria-labelledby="custom-text-title">
      <h2 id="custom-text-title">Login page text</h2>
      <Select label="Language" value={lang} onValue={setLang} options={LANGUAGES} />
      <LoadState loaded={text}>{(t) => <CustomTextForm key={lang} lang={lang} initial={t.login ?? {}} />}</LoadState>
    </section>
  );
}

function CustomTextForm({ lang, initial }: { lang: string; initial: Record<string, string> }) {
  const api = useApi();
  const [values, setValues] = useState<Record<string, string>>(initial);
  return (
    <Form
      title={`Custom text (${lang})`}
      level={3}
      submit="Save text"
      onSubmit={async () => {
        const login = Object.fromEntries(Object.entries(values).filter(([, v]) => v.trim() !== ''));
        await api.put(`/prompts/login/custom-text/${seg(lang)}`, { login });
        return 'Text saved.';
      }}
    >
      {TEXT_KEYS.map(([key, label]) => (
        <Field key={key} label={label} value={values[key] ?? ''} onValue={(v) => setValues({ ...values, [key]: v })} hint="Empty: the default text." />
      ))}
    </Form>
  );
}

/** A textarea for markup: monospace, its hint tied to it. */
function CodeField({ label, value, onValue, hint, rows = 6 }: { label: string; value: string; onValue: (value: string) => void; hint: string; rows?: number }) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <textarea id={id} class="code" rows={rows} spellcheck={false} value={value} aria-describedby={`${id}-hint`} onInput={(e) => onValue(e.currentTarget.value)} />
      <p class="hint" id={`${id}-hint`}>
        {hint}
      </p>
    </div>
  );
}

const STARTER_TEMPLATE = `<!DOCTYPE html>
<html lang="{{ locale }}">
  <head>{%- auth0:head -%}</head>
  <body>
    {%- auth0:widget -%}
  </body>
</html>`;

function PageTemplate() {
  const api = useApi();
  const template = useLoad(
    () => api.get<{ body: string }>('/branding/templates/universal-login').catch((error: unknown) => (error instanceof ApiError && error.status === 404 ? { body: '' } : Promise.reject(error))),
    [],
  );
  return <LoadState loaded={template}>{(t) => <PageTemplateForm initial={t.body} reload={template.reload} />}</LoadState>;
}

function PageTemplateForm({ initial, reload }: { initial: string; reload: () => void }) {
  const api = useApi();
  const [body, setBody] = useState(initial || STARTER_TEMPLATE);
  return (
    <Form
      title="Page template"
      submit="Save template"
      onSubmit={async () => {
        await api.put('/branding/templates/universal-login', { template: body });
        return 'Template saved: every hosted page now renders inside it.';
      }}
    >
      <CodeField
        label="Template (Liquid)"
        rows={14}
        value={body}
        onValue={setBody}
        hint="{%- auth0:head -%} and {%- auth0:widget -%} are required; variables: locale, application.name, tenant.friendly_name, prompt.name. Markup only: the pages' CSP refuses scripts, styles and other origins."
      />
      {initial && <ActionButton label="Remove the template" danger confirm="Remove the page template? The pages go back to the default document." action={async () => { await api.del('/branding/templates/universal-login'); reload(); }} />}
    </Form>
  );
}

/** The login screen's insertion points (the service's), with what each is. */
const INSERTION_POINTS: [string, string][] = [
  ['form-content-start', 'Form start (before the first field)'],
  ['form-content-end', 'Form end (before the button)'],
  ['form-footer-start', 'Footer start (before the links)'],
  ['form-footer-end', 'Footer end (after the links)'],
  ['secondary-actions-start', 'Before the other ways to log in'],
  ['secondary-actions-end', 'After the other ways to log in'],
];

function LoginPartials() {
  const api = useApi();
  const partials = useLoad(() => api.get<{ login?: Record<string, string> }>('/prompts/login/partials'), []);
  return <LoadState loaded={partials}>{(p) => <LoginPartialsForm initial={p.login ?? {}} />}</LoadState>;
}

function LoginPartialsForm({ initial }: { initial: Record<string, string> }) {
  const api = useApi();
  const [values, setValues] = useState<Record<string, string>>(initial);
  return (
    <Form
      title="Login page partials"
      submit="Save partials"
      onSubmit={async () => {
        const login = Object.fromEntries(Object.entries(values).filter(([, v]) => v.trim() !== ''));
        await api.put('/prompts/login/partials', { login });
        return 'Partials saved.';
      }}
    >
      {INSERTION_POINTS.map(([point, label]) => (
        <CodeField key={point} label={label} rows={3} value={values[point] ?? ''} onValue={(v) => setValues({ ...values, [point]: v })} hint={`${point}: Liquid markup, at most 10,000 characters; empty: none.`} />
      ))}
    </Form>
  );
}

type ThemeGroup = Record<string, unknown>;
interface Theme {
  themeId: string;
  displayName: string;
  colors: Record<string, string>;
  borders: ThemeGroup;
  fonts: ThemeGroup;
  page_background: ThemeGroup & { background_color: string };
  widget: ThemeGroup;
}

/** A new theme: the service's defaults (its Dashboard's), with the tenant's branding colours where it has them. */
function newTheme(branding: Branding): Omit<Theme, 'themeId'> {
  const primary = branding.colors?.primary ?? DEFAULT_PRIMARY;
  const grey = '#65676e';
  const ink = '#1e212a';
  const line = '#c9cace';
  const text = (size: number, bold = false) => ({ bold, size });
  return {
    displayName: 'Default',
    colors: {
      body_text: ink, header: ink, error: '#d03c38', success: '#13a688', icons: grey, input_labels_placeholders: grey,
      input_background: '#ffffff', input_border: line, input_filled_text: '#000000', links_focused_components: primary,
      primary_button: primary, primary_button_label: '#ffffff', secondary_button_border: line, secondary_button_label: ink,
      widget_background: '#ffffff', widget_border: line,
    },
    borders: {
      button_border_radius: 3, button_border_weight: 1, buttons_style: 'rounded', input_border_radius: 3, input_border_weight: 1,
      inputs_style: 'rounded', show_widget_shadow: true, widget_border_weight: 0, widget_corner_radius: 5,
    },
    fonts: {
      font_url: '', links_style: 'normal', reference_text_size: 16, title: text(150), subtitle: text(87.5), body_text: text(87.5),
      buttons_text: text(100), input_labels: text(100), links: text(87.5, true),
    },
    page_background: { background_color: typeof branding.colors?.page_background === 'string' ? branding.colors.page_background : DEFAULT_BACKGROUND, background_image_url: '', page_layout: 'center' },
    widget: { header_text_alignment: 'center', logo_height: 52, logo_position: 'center', logo_url: '', social_buttons_layout: 'bottom' },
  };
}

function ThemeEditor() {
  const api = useApi();
  const theme = useLoad(() => api.get<Theme>('/branding/themes/default').catch((error: unknown) => (error instanceof ApiError && error.status === 404 ? null : Promise.reject(error))), []);
  return (
    <LoadState loaded={theme}>
      {(t) =>
        t ? (
          <ThemeForm key={t.themeId} initial={t} reload={theme.reload} />
        ) : (
          <section class="card" aria-labelledby="no-theme-title">
            <h2 id="no-theme-title">Theme</h2>
            <p>No theme: the pages use the branding above.</p>
            <ActionButton label="Create a theme" action={async () => { await api.post('/branding/themes', newTheme(await api.get<Branding>('/branding'))); theme.reload(); }} />
          </section>
        )
      }
    </LoadState>
  );
}

/** The colours an operator edits most, and their labels. */
const THEME_COLOURS: [string, string][] = [
  ['primary_button', 'Button'],
  ['primary_button_label', 'Button label'],
  ['header', 'Title'],
  ['body_text', 'Text'],
  ['links_focused_components', 'Links and focus'],
  ['widget_background', 'Card'],
];

function ThemeForm({ initial, reload }: { initial: Theme; reload: () => void }) {
  const api = useApi();
  const [colors, setColors] = useState(initial.colors);
  const [pageBackground, setPageBackground] = useState(initial.page_background.background_color);
  const [buttons, setButtons] = useState(String(initial.borders.buttons_style ?? 'rounded'));
  const [corner, setCorner] = useState(String(initial.borders.widget_corner_radius ?? 5));
  const [align, setAlign] = useState(String(initial.widget.header_text_alignment ?? 'center'));
  const [saved, setSaved] = useState(0);
  return (
    <div class="split">
      <Form
        title="Theme"
        submit="Save theme"
        onSubmit={async () => {
          const { themeId, ...body } = initial;
          await api.patch(`/branding/themes/${seg(themeId)}`, {
            ...body,
            colors,
            borders: { ...initial.borders, buttons_style: buttons, widget_corner_radius: Number(corner) },
            page_background: { ...initial.page_background, background_color: pageBackground },
            widget: { ...initial.widget, header_text_alignment: align },
          });
          setSaved(saved + 1);
          return 'Theme saved.';
        }}
      >
        {THEME_COLOURS.map(([key, label]) => (
          <ColourField key={key} label={label} value={colors[key] ?? '#000000'} onValue={(v) => setColors({ ...colors, [key]: v })} />
        ))}
        <ColourField label="Page" value={pageBackground} onValue={setPageBackground} />
        <Select label="Buttons" value={buttons} onValue={setButtons} options={['pill', 'rounded', 'sharp']} />
        <Select label="Card corners (px)" value={corner} onValue={setCorner} options={[...new Set(['0', '5', '12', '24', corner])]} />
        <Select label="Title alignment" value={align} onValue={setAlign} options={['center', 'left', 'right']} />
        <ActionButton label="Remove the theme" danger confirm="Remove the theme? The pages go back to the branding." action={async () => { await api.del(`/branding/themes/${seg(initial.themeId)}`); reload(); }} />
      </Form>
      <section class="card preview" aria-labelledby="theme-preview-title">
        <h2 id="theme-preview-title">Saved theme</h2>
        <iframe key={saved} title="Login page with the saved theme" src={`/admin/preview/login?lang=en&v=${saved}`} />
      </section>
    </div>
  );
}
