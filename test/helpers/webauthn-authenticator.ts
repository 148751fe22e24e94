/**
 * A software WebAuthn authenticator for route tests: an ECDSA P-256 key
 * pair per credential, attestation `none`, and the authenticator data,
 * client data and signatures the W3C Web Authentication spec (§6.1, §6.5,
 * §7) defines, encoded with @simplewebauthn/server's CBOR helper. Each
 * knob a refusal needs is a parameter: the origin and RP ID the answer is
 * made for, the user-verified flag, the signature counter.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

const b64u = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

export interface Ceremony {
  /** The options' challenge (base64url). */
  challenge: string;
  /** Where the browser says it ran (default: https://<rpId>). */
  origin?: string;
  /** The RP ID whose hash the authenticator data carries. */
  rpId: string;
  /** The UV flag (default true). */
  userVerified?: boolean;
}

export class SoftwareAuthenticator {
  readonly credentialId = randomBytes(32);
  readonly #key: KeyObject;
  readonly #publicJwk: { x: string; y: string };
  signCount = 0;

  constructor() {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.#key = privateKey;
    this.#publicJwk = publicKey.export({ format: 'jwk' }) as { x: string; y: string };
  }

  get id(): string {
    return b64u(this.credentialId);
  }

  #authData(rpId: string, flags: number, attested: Uint8Array | undefined): Buffer {
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.signCount);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), counter, ...(attested ? [attested] : [])]);
  }

  #flags(c: Ceremony, attested: boolean): number {
    return 0x01 | (c.userVerified === false ? 0 : 0x04) | (attested ? 0x40 : 0);
  }

  #clientData(type: string, c: Ceremony): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge: c.challenge, origin: c.origin ?? `https://${c.rpId}`, crossOrigin: false }));
  }

  /** The answer to navigator.credentials.create(), as PublicKeyCredential.toJSON() gives it. */
  register(c: Ceremony): Record<string, unknown> {
    const cose = new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(this.#publicJwk.x, 'base64url')],
      [-3, Buffer.from(this.#publicJwk.y, 'base64url')],
    ]);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, this.credentialId, Buffer.from(isoCBOR.encode(cose))]);
    const authData = this.#authData(c.rpId, this.#flags(c, true), attested);
    const attestationObject = isoCBOR.encode(new Map<string, unknown>([['fmt', 'none'], ['attStmt', new Map()], ['authData', authData]]) as never);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: { clientDataJSON: b64u(this.#clientData('webauthn.create', c)), attestationObject: b64u(attestationObject), transports: ['usb'] },
      clientExtensionResults: {},
      authenticatorAttachment: 'cross-platform',
    };
  }

  /**
   * The answer to navigator.credentials.get(); the counter moves on by one
   * unless `signCount` says otherwise. `userHandle`: the user id a
   * discoverable credential (a passkey) returns, as text.
   */
  assert(c: Ceremony, options: { signCount?: number; userHandle?: string } = {}): Record<string, unknown> {
    this.signCount = options.signCount ?? this.signCount + 1;
    const authData = this.#authData(c.rpId, this.#flags(c, false), undefined);
    const clientData = this.#clientData('webauthn.get', c);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientData)]), this.#key);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64u(clientData),
        authenticatorData: b64u(authData),
        signature: b64u(signature),
        ...(options.userHandle !== undefined && { userHandle: Buffer.from(options.userHandle).toString('base64url') }),
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'cross-platform',
    };
  }
}
