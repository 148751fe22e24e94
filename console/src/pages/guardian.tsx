/**
 * Multi-factor authentication (/api/v2/guardian): factors on and off, and
 * the push-notification provider: Amazon SNS or direct APNs credentials,
 * and which one delivers pushes (the selected provider).
 */
import { useState } from 'preact/hooks';
import { seg } from '../api.js';
import { Checkbox, Field, Form, ListSection, LoadState, PageHeader, Select, useApi, useLoad } from '../ui.js';

interface Factor {
  name: string;
  enabled: boolean;
}

interface Sns {
  aws_access_key_id?: string | null;
  aws_region?: string | null;
  sns_apns_platform_application_arn?: string | null;
  sns_gcm_platform_application_arn?: string | null;
}

interface Apns {
  bundle_id?: string | null;
  sandbox?: boolean;
  enabled?: boolean;
}

const PUSH = '/guardian/factors/push-notification';

const FACTOR_NAMES: Record<string, string> = {
  'push-notification': 'Push notification (Guardian app)',
  sms: 'SMS',
  email: 'Email',
  duo: 'Duo',
  otp: 'One-time password (authenticator app)',
  'webauthn-roaming': 'Security keys (WebAuthn roaming)',
  'webauthn-platform': 'Device biometrics (WebAuthn platform)',
  'recovery-code': 'Recovery code',
};

export function Guardian() {
  return (
    <>
      <PageHeader title="Multi-factor authentication" />
      <Factors />
      <PushProvider />
    </>
  );
}

function Factors() {
  const api = useApi();
  const factors = useLoad(() => api.get<Factor[]>('/guardian/factors'), []);
  return (
    <ListSection
      title="Factors"
      caption="Factors"
      rows={factors}
      columns={[
        { title: 'Factor', cell: (f) => FACTOR_NAMES[f.name] ?? f.name },
        { title: 'Status', cell: (f) => (f.enabled ? 'On' : 'Off') },
      ]}
      action={{
        label: (f) => `${f.enabled ? 'Turn off' : 'Turn on'} ${FACTOR_NAMES[f.name] ?? f.name}`,
        run: (f) => api.put(`/guardian/factors/${seg(f.name)}`, { enabled: !f.enabled }),
      }}
    />
  );
}

function PushProvider() {
  const api = useApi();
  const loaded = useLoad(async () => {
    const [selected, sns, apns] = await Promise.all([
      api.get<{ provider: string }>(`${PUSH}/selected-provider`),
      api.get<Sns>(`${PUSH}/providers/sns`),
      api.get<Apns>(`${PUSH}/providers/apns`),
    ]);
    return { selected: selected.provider, sns, apns };
  }, []);
  return (
    <section class="card" aria-labelledby="push-title">
      <h2 id="push-title">Push notification provider</h2>
      <LoadState loaded={loaded}>
        {({ selected, sns, apns }) => (
          <>
            <SelectedProvider initial={selected} />
            <SnsForm initial={sns} />
            <ApnsForm initial={apns} />
          </>
        )}
      </LoadState>
    </section>
  );
}

function SelectedProvider({ initial }: { initial: string }) {
  const api = useApi();
  const [provider, setProvider] = useState(initial);
  return (
    <Form
      title="Provider in use"
      level={3}
      submit="Use this provider"
      onSubmit={async () => {
        await api.put(`${PUSH}/selected-provider`, { provider });
        return 'Provider saved.';
      }}
    >
      <Select
        label="Push provider"
        value={provider}
        onValue={setProvider}
        options={[
          ['guardian', 'Guardian (the default)'],
          ['sns', 'Amazon SNS'],
          ['direct', 'Direct (APNs)'],
        ]}
      />
    </Form>
  );
}

const text = (value: string | null | undefined) => value ?? '';

function SnsForm({ initial }: { initial: Sns }) {
  const api = useApi();
  const [keyId, setKeyId] = useState(text(initial.aws_access_key_id));
  const [secret, setSecret] = useState('');
  const [region, setRegion] = useState(text(initial.aws_region));
  const [apnsArn, setApnsArn] = useState(text(initial.sns_apns_platform_application_arn));
  const [gcmArn, setGcmArn] = useState(text(initial.sns_gcm_platform_application_arn));
  return (
    <Form
      title="Amazon SNS"
      level={3}
      submit="Save SNS settings"
      onSubmit={async () => {
        // PUT replaces the configuration; the stored secret is never shown, so it is sent only when typed.
        const body = {
          aws_access_key_id: keyId || null,
          aws_region: region || null,
          sns_apns_platform_application_arn: apnsArn || null,
          sns_gcm_platform_application_arn: gcmArn || null,
        };
        if (secret) await api.put(`${PUSH}/providers/sns`, { ...body, aws_secret_access_key: secret });
        else await api.patch(`${PUSH}/providers/sns`, body);
        setSecret('');
        return 'SNS settings saved.';
      }}
    >
      <Field label="AWS access key ID" value={keyId} onValue={setKeyId} autoComplete="off" />
      <Field label="AWS secret access key" type="password" value={secret} onValue={setSecret} autoComplete="new-password" hint="Write-only: leave empty to keep the stored key." />
      <Field label="AWS region" value={region} onValue={setRegion} placeholder="us-east-1" />
      <Field label="SNS APNs platform application ARN" value={apnsArn} onValue={setApnsArn} />
      <Field label="SNS GCM platform application ARN" value={gcmArn} onValue={setGcmArn} />
    </Form>
  );
}

/** A file's bytes in base64, for the `p12` member. */
async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function ApnsForm({ initial }: { initial: Apns }) {
  const api = useApi();
  const [bundleId, setBundleId] = useState(text(initial.bundle_id));
  const [sandbox, setSandbox] = useState(initial.sandbox ?? false);
  const [p12, setP12] = useState<File>();
  return (
    <Form
      title="Apple Push Notification service (direct)"
      level={3}
      submit="Save APNs settings"
      onSubmit={async () => {
        const body = { bundle_id: bundleId || null, sandbox };
        if (p12) await api.put(`${PUSH}/providers/apns`, { ...body, p12: await base64Of(p12) });
        else await api.patch(`${PUSH}/providers/apns`, body);
        return 'APNs settings saved.';
      }}
    >
      <p>{initial.enabled ? 'A certificate is stored.' : 'Not configured yet.'}</p>
      <Field label="Bundle ID" value={bundleId} onValue={setBundleId} placeholder="com.example.app" />
      <P12Field onFile={setP12} />
      <Checkbox label="Sandbox (development) environment" checked={sandbox} onChecked={setSandbox} />
    </Form>
  );
}

function P12Field({ onFile }: { onFile: (file: File | undefined) => void }) {
  return (
    <div class="field">
      <label for="apns-p12">Certificate (.p12)</label>
      <input id="apns-p12" type="file" accept=".p12,application/x-pkcs12" aria-describedby="apns-p12-hint" onChange={(e) => onFile(e.currentTarget.files?.[0])} />
      <p class="hint" id="apns-p12-hint">
        Write-only: leave empty to keep the stored certificate.
      </p>
    </div>
  );
}
