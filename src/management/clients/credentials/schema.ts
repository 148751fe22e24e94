/** Schemas of /api/v2/clients/{client_id}/credentials, after the service's OpenAPI document. */
import { Type } from '@sinclair/typebox';
import { CREDENTIAL_ALGS, MAX_PEM_LENGTH } from '../../../domain/client-credentials/new-credential.js';
import { StringEnum } from '../../../platform/http/schema-types.js';

export const CREDENTIAL_TYPES = ['public_key', 'cert_subject_dn', 'x509_cert'] as const;

const Id = Type.String({ minLength: 1, maxLength: 64, pattern: '^[^\\u0000-\\u001f]+$' });

export const ClientParams = Type.Object({ client_id: Id }, { additionalProperties: false });
export const CredentialParams = Type.Object({ client_id: Id, credential_id: Id }, { additionalProperties: false });

/** The members of a new credential (PublicKeyCredential, X509CertificateCredential, CertificateSubjectDNCredential). */
export const credentialInputProperties = {
  credential_type: StringEnum(CREDENTIAL_TYPES, { description: 'The type of credential.' }),
  name: Type.Optional(Type.String({ maxLength: 128, description: 'Friendly name for a credential.' })),
  subject_dn: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'Subject Distinguished Name. Mutually exclusive with `pem` property.' })),
  pem: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_PEM_LENGTH, description: 'PEM-formatted public key (SPKI and PKCS1) or X509 certificate.' })),
  alg: Type.Optional(StringEnum(CREDENTIAL_ALGS, { description: 'Algorithm which will be used with the credential.' })),
  parse_expiry_from_cert: Type.Optional(Type.Boolean({ description: 'Parse expiry from x509 certificate.' })),
  expires_at: Type.Optional(Type.String({ format: 'date-time', description: 'The ISO 8601 formatted date representing the expiration of the credential.' })),
  kid: Type.Optional(Type.String({ minLength: 10, maxLength: 64, pattern: '^([0-9a-zA-Z-_]{10,64})$', description: 'Optional kid (Key ID).' })),
};

export const CreateCredentialBody = Type.Object(credentialInputProperties, { additionalProperties: false });

export const UpdateCredentialBody = Type.Object(
  { expires_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'The ISO 8601 formatted date representing the expiration of the credential.' }) },
  { additionalProperties: false, minProperties: 1 },
);

export const CredentialResponse = Type.Object(
  {
    id: Type.String({ description: 'ID of the credential. Generated on creation.' }),
    name: Type.String({ description: 'The name given to the credential by the user.' }),
    kid: Type.String({ description: 'The key identifier of the credential, generated on creation.' }),
    alg: Type.Optional(Type.String()),
    credential_type: Type.String(),
    subject_dn: Type.Optional(Type.String({ description: "The X509 certificate's Subject Distinguished Name" })),
    thumbprint_sha256: Type.Optional(Type.String({ description: "The X509 certificate's SHA256 thumbprint" })),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
    expires_at: Type.Optional(Type.String({ format: 'date-time' })),
  },
  { additionalProperties: false },
);
