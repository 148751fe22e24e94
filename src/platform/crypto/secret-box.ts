/**
 * Secrets at rest: AES-256-GCM under the master key (ARCHITECTURE "Data").
 *
 * Sealed values are `v1.<iv>.<ciphertext+tag>` in base64url. Each value is
 * bound to what it belongs to through GCM's additional authenticated data
 * (e.g. `client_secret:<client_id>`), so a ciphertext copied onto another
 * row does not decrypt.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SecretBox {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('the master key must be 32 bytes');
    this.#key = key;
  }

  seal(plaintext: string | Buffer, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
    return `v1.${iv.toString('base64url')}.${body.toString('base64url')}`;
  }

  open(sealed: string, context: string): Buffer {
    const [version, ivPart, bodyPart] = sealed.split('.');
    if (version !== 'v1' || ivPart === undefined || bodyPart === undefined) {
      throw new Error('sealed value has an unknown format');
    }
    const iv = Buffer.from(ivPart, 'base64url');
    const body = Buffer.from(bodyPart, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, iv);
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
    return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]);
  }

  openString(sealed: string, context: string): string {
    return this.open(sealed, context).toString('utf8');
  }
}
