/**
 * Branding (/api/v2/branding): logo, primary colour and page background,
 * with a live preview of the real login page (/admin/preview/login renders
 * it with the values given in its query); and, optionally, the login
 * prompt's custom text (/api/v2/prompts/login/custom-text/{language}).
 */
import { useEffect, useState } from 'preact/hooks';
import { seg } from '../api.js';
import { Field, Form, LoadState, PageHeader, Select, useApi, useLoad } from '../ui.js';

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
