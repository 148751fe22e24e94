/**
 * Password hashes brought in by a user import (`custom_password_hash` of the
 * service's user import format, or a plain bcrypt `password_hash`), turned into
 * the one string the users table keeps, and checked at login by the hashing
 * pool's worker (./hash-worker.ts) with node:crypto, @node-rs/argon2 or
 * bcryptjs; the first successful login replaces them with argon2id.
 *
 * Stored forms:
 * - bcrypt: `$2a$`/`$2b$`/`$2y$` as given;
 * - argon2: the PHC string as given (`$argon2id$`, `$argon2i$`, `$argon2d$`);
 * - pbkdf2: the PHC-like string of the service's documentation,
 *   `$pbkdf2-<sha1|sha256|sha512>$i=<iterations>,l=<key length>$<salt B64>$<hash B64>`,
 *   normalised to unpadded standard base64;
 * - md5/sha1/sha256/sha512 over the password with a salt before or after it:
 *   `$gh-digest$a=<algorithm>,s=<prefix|suffix>,p=<password encoding>$<salt B64>$<hash B64>`
 *   (Gatehouse's own form; the salt may be empty).
 *
 * Not taken (the user gets an import error): hmac, ldap, md4, scrypt.
 * Bounds: a stored hash is at most MAX_HASH_LENGTH characters, pbkdf2 at most
 * MAX_PBKDF2_ITERATIONS iterations and 128-byte keys, salts at most 1 KiB.
 */

export const MAX_HASH_LENGTH = 512;
export const MAX_PBKDF2_ITERATIONS = 2_000_000;
const MAX_PBKDF2_KEY = 128;
const MAX_SALT_BYTES = 1024;

export const DIGEST_ALGORITHMS = ['md5', 'sha1', 'sha256', 'sha512'] as const;
export type DigestAlgorithm = (typeof DIGEST_ALGORITHMS)[number];
const DIGEST_LENGTHS: Record<DigestAlgorithm, number> = { md5: 16, sha1: 20, sha256: 32, sha512: 64 };
const PBKDF2_DIGESTS = ['sha1', 'sha256', 'sha512'] as const;
/** What Buffer.from takes for a password (the service's list: ascii, utf8, utf16le, ucs2, latin1, binary). */
const PASSWORD_ENCODINGS = ['ascii', 'utf8', 'utf16le', 'ucs2', 'latin1', 'binary'] as const;
type PasswordEncoding = (typeof PASSWORD_ENCODINGS)[number];

export const BCRYPT_HASH = /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/;
/** Parameters in any order (the argon2 package writes m, p, t); `v=` absent in version 1.0 strings. */
export const ARGON2_HASH = /^\$argon2(id|i|d)\$(v=\d+\$)?[a-z]+=\d+(,[a-z]+=\d+){0,5}\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/;
const PBKDF2_HASH = /^\$pbkdf2-(sha1|sha256|sha512)\$i=(\d{1,9}),l=(\d{1,4})\$([A-Za-z0-9+/._=-]*)\$([A-Za-z0-9+/._=-]+)$/;
const DIGEST_HASH = /^\$gh-digest\$a=(md5|sha1|sha256|sha512),s=(prefix|suffix),p=([a-z0-9]+)\$([A-Za-z0-9+/]*)\$([A-Za-z0-9+/]+)$/;

/** The families a stored hash may belong to (what the worker is told to check). */
export type HashFamily = 'argon2' | 'bcrypt' | 'pbkdf2' | 'digest';

export function hashFamily(hash: string): HashFamily | undefined {
  if (hash.length > MAX_HASH_LENGTH) return undefined;
  if (BCRYPT_HASH.test(hash)) return 'bcrypt';
  if (ARGON2_HASH.test(hash)) return 'argon2';
  if (PBKDF2_HASH.test(hash)) return 'pbkdf2';
  if (DIGEST_HASH.test(hash)) return 'digest';
  return undefined;
}

/** Unpadded standard base64 (PHC's B64). */
function b64(bytes: Buffer): string {
  return bytes.toString('base64').replace(/=+$/, '');
}

/** Strict decoding of the service's encodings: a value that does not round-trip is refused. */
function decode(value: string, encoding: string | undefined, what: string): Buffer {
  switch (encoding ?? 'utf8') {
    case 'utf8':
      return Buffer.from(value, 'utf8');
    case 'hex':
      if (!/^([0-9a-fA-F]{2})*$/.test(value)) throw new ImportedHashError(`${what} is not hex`);
      return Buffer.from(value, 'hex');
    case 'base64': {
      if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(value)) throw new ImportedHashError(`${what} is not base64`);
      return Buffer.from(value, 'base64');
    }
    default:
      throw new ImportedHashError(`${what} encoding must be one of utf8, hex, base64`);
  }
}

export class ImportedHashError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportedHashError';
  }
}

export interface CustomPasswordHash {
  algorithm?: unknown;
  hash?: { value?: unknown; encoding?: unknown };
  salt?: { value?: unknown; encoding?: unknown; position?: unknown };
  password?: { encoding?: unknown };
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** A `pbkdf2` PHC string checked and normalised (salt and hash re-encoded as B64). */
export function normalisePbkdf2(value: string): string {
  const match = PBKDF2_HASH.exec(value);
  if (!match) throw new ImportedHashError('the pbkdf2 hash must read $pbkdf2-<sha1|sha256|sha512>$i=<iterations>,l=<length>$<salt>$<hash>');
  const [, digest, i, l, salt, hash] = match as unknown as [string, string, string, string, string, string];
  const iterations = Number(i);
  const length = Number(l);
  if (iterations < 1 || iterations > MAX_PBKDF2_ITERATIONS) throw new ImportedHashError(`pbkdf2 iterations must be from 1 to ${MAX_PBKDF2_ITERATIONS}`);
  // passlib's "adapted base64" writes `.` for `+`.
  const saltBytes = Buffer.from(salt.replace(/\./g, '+'), 'base64');
  const hashBytes = Buffer.from(hash.replace(/\./g, '+'), 'base64');
  if (length < 1 || length > MAX_PBKDF2_KEY || hashBytes.length !== length) throw new ImportedHashError('the pbkdf2 hash length does not match l');
  if (saltBytes.length > MAX_SALT_BYTES) throw new ImportedHashError('the pbkdf2 salt is too long');
  return `$pbkdf2-${digest}$i=${iterations},l=${length}$${b64(saltBytes)}$${b64(hashBytes)}`;
}

/**
 * The stored form of a `custom_password_hash` (the service's user import
 * format), or ImportedHashError saying what is wrong with it.
 */
export function storedHashOf(custom: CustomPasswordHash): string {
  const algorithm = str(custom.algorithm);
  const value = str(custom.hash?.value);
  if (algorithm === undefined) throw new ImportedHashError('custom_password_hash.algorithm is required');
  if (value === undefined || value === '') throw new ImportedHashError('custom_password_hash.hash.value is required');
  if (value.length > MAX_HASH_LENGTH * 2) throw new ImportedHashError('custom_password_hash.hash.value is too long');
  const hashEncoding = str(custom.hash?.encoding);
  let stored: string;
  switch (algorithm) {
    case 'bcrypt':
    case 'argon2':
    case 'pbkdf2': {
      // These carry their parameters in the string itself: the service takes them as utf8 only.
      if (hashEncoding !== undefined && hashEncoding !== 'utf8') throw new ImportedHashError(`the ${algorithm} hash encoding must be utf8`);
      if (algorithm === 'bcrypt') {
        if (!BCRYPT_HASH.test(value)) throw new ImportedHashError('the bcrypt hash is not a $2a$, $2b$ or $2y$ hash');
        stored = value;
      } else if (algorithm === 'argon2') {
        if (!ARGON2_HASH.test(value)) throw new ImportedHashError('the argon2 hash is not an argon2id, argon2i or argon2d PHC string');
        stored = value;
      } else {
        stored = normalisePbkdf2(value);
      }
      break;
    }
    case 'md5':
    case 'sha1':
    case 'sha256':
    case 'sha512': {
      if (hashEncoding !== 'hex' && hashEncoding !== 'base64') throw new ImportedHashError(`the ${algorithm} hash encoding must be hex or base64`);
      const hash = decode(value, hashEncoding, 'the hash');
      if (hash.length !== DIGEST_LENGTHS[algorithm]) throw new ImportedHashError(`the hash is not a ${algorithm} digest`);
      const saltValue = str(custom.salt?.value) ?? '';
      const salt = decode(saltValue, str(custom.salt?.encoding), 'the salt');
      if (salt.length > MAX_SALT_BYTES) throw new ImportedHashError('the salt is too long');
      const position = str(custom.salt?.position) ?? 'prefix';
      if (position !== 'prefix' && position !== 'suffix') throw new ImportedHashError('the salt position must be prefix or suffix');
      const passwordEncoding = str(custom.password?.encoding) ?? 'utf8';
      if (!(PASSWORD_ENCODINGS as readonly string[]).includes(passwordEncoding)) {
        throw new ImportedHashError(`the password encoding must be one of ${PASSWORD_ENCODINGS.join(', ')}`);
      }
      stored = `$gh-digest$a=${algorithm},s=${position},p=${passwordEncoding}$${b64(salt)}$${b64(hash)}`;
      break;
    }
    default:
      throw new ImportedHashError(`the algorithm ${algorithm} is not supported: use bcrypt, argon2, pbkdf2, md5, sha1, sha256 or sha512`);
  }
  if (stored.length > MAX_HASH_LENGTH) throw new ImportedHashError('the hash is too long');
  return stored;
}

export interface ParsedPbkdf2 {
  digest: (typeof PBKDF2_DIGESTS)[number];
  iterations: number;
  length: number;
  salt: Buffer;
  hash: Buffer;
}

/** A stored pbkdf2 hash's parts (for the worker); undefined when malformed or out of bounds. */
export function parsePbkdf2(stored: string): ParsedPbkdf2 | undefined {
  const match = PBKDF2_HASH.exec(stored);
  if (!match) return undefined;
  const iterations = Number(match[2]);
  const length = Number(match[3]);
  const hash = Buffer.from(match[5]!, 'base64');
  if (iterations < 1 || iterations > MAX_PBKDF2_ITERATIONS || length < 1 || length > MAX_PBKDF2_KEY || hash.length !== length) return undefined;
  return { digest: match[1] as ParsedPbkdf2['digest'], iterations, length, salt: Buffer.from(match[4]!, 'base64'), hash };
}

export interface ParsedDigest {
  algorithm: DigestAlgorithm;
  position: 'prefix' | 'suffix';
  passwordEncoding: PasswordEncoding;
  salt: Buffer;
  hash: Buffer;
}

export function parseDigest(stored: string): ParsedDigest | undefined {
  const match = DIGEST_HASH.exec(stored);
  if (!match || !(PASSWORD_ENCODINGS as readonly string[]).includes(match[3]!)) return undefined;
  const algorithm = match[1] as DigestAlgorithm;
  const hash = Buffer.from(match[5]!, 'base64');
  if (hash.length !== DIGEST_LENGTHS[algorithm]) return undefined;
  return { algorithm, position: match[2] as 'prefix' | 'suffix', passwordEncoding: match[3] as PasswordEncoding, salt: Buffer.from(match[4]!, 'base64'), hash };
}
