/**
 * Tenant settings (/api/v2/tenants/settings): friendly name, support
 * contacts, session lifetimes and the enabled locales.
 */
import { useState } from 'preact/hooks';
import { Field, Form, ListField, LoadState, PageHeader, useApi, useLoad } from '../ui.js';

interface TenantSettings {
  friendly_name?: string;
  support_email?: string;
  support_url?: string;
  session_lifetime?: number;
  idle_session_lifetime?: number;
  enabled_locales?: string[];
}

export function Tenant() {
  const api = useApi();
  const settings = useLoad(() => api.get<TenantSettings>('/tenants/settings'), []);
  return (
    <>
      <PageHeader title="Tenant settings" />
      <LoadState loaded={settings}>{(s) => <TenantForm initial={s} />}</LoadState>
    </>
  );
}

/** A number field's value: empty leaves the setting out. */
const hours = (text: string): number | undefined => (text.trim() === '' ? undefined : Number(text));

function TenantForm({ initial }: { initial: TenantSettings }) {
  const api = useApi();
  const [friendlyName, setFriendlyName] = useState(initial.friendly_name ?? '');
  const [supportEmail, setSupportEmail] = useState(initial.support_email ?? '');
  const [supportUrl, setSupportUrl] = useState(initial.support_url ?? '');
  const [lifetime, setLifetime] = useState(String(initial.session_lifetime ?? ''));
  const [idle, setIdle] = useState(String(initial.idle_session_lifetime ?? ''));
  const [locales, setLocales] = useState(initial.enabled_locales ?? []);
  return (
    <Form
      title="General"
      submit="Save settings"
      onSubmit={async () => {
        await api.patch('/tenants/settings', {
          ...(friendlyName && { friendly_name: friendlyName }),
          ...(supportEmail && { support_email: supportEmail }),
          ...(supportUrl && { support_url: supportUrl }),
          ...(hours(lifetime) !== undefined && { session_lifetime: hours(lifetime) }),
          ...(hours(idle) !== undefined && { idle_session_lifetime: hours(idle) }),
          ...(locales.length > 0 && { enabled_locales: locales }),
        });
        return 'Tenant settings saved.';
      }}
    >
      <Field label="Friendly name" value={friendlyName} onValue={setFriendlyName} hint="Shown on the login pages." />
      <Field label="Support email" type="email" value={supportEmail} onValue={setSupportEmail} />
      <Field label="Support URL" type="url" value={supportUrl} onValue={setSupportUrl} />
      <Field label="Session lifetime (hours)" type="number" min={1} step="any" value={lifetime} onValue={setLifetime} hint="How long a login session lasts at most." />
      <Field label="Idle session lifetime (hours)" type="number" min={1} step="any" value={idle} onValue={setIdle} hint="How long a session lasts without activity." />
      <ListField label="Enabled locales" values={locales} onValues={setLocales} hint="Language codes such as en or fr, one per line; the first is the default." />
    </Form>
  );
}
