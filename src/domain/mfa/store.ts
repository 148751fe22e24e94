/**
 * Storage of multi-factor authentication: the tenant's factors and policies,
 * users' enrolments, out-of-band challenges and the count of wrong codes.
 * Implemented by src/storage/kysely/mfa.ts; the composition root builds one.
 */
import type { MfaAuthenticatorRow, MfaChallengeRow } from './rows.js';
import type { FactorName, MfaPolicy, PhoneMessageType, PhoneProvider, SmsSettings, SmsTemplates, TwilioSettings } from './model.js';

/** What a push enrolment keeps of its device. */
export interface PushDevice {
  name: string | null;
  push_service: string;
  /** Sealed under pushTokenContext. */
  push_token_enc: string;
  /** The device's public JWK, as JSON. */
  public_key: string;
}

/*
 * One interface per part of multi-factor storage (the tenant's settings, the
 * users' enrolments and recovery codes, challenges, push devices and
 * challenges, the count of wrong codes), so that a consumer names what it
 * touches; `MfaStore` is all of them, as src/storage/kysely/mfa.ts implements it.
 */

/** The tenant's factors, policies and SMS settings (/guardian/factors, /guardian/policies, …/sms). */
export interface MfaSettingsStore {
  /** The factors the tenant enabled (absent ones are disabled). */
  enabledFactors(tenantId: string): Promise<Set<FactorName>>;
  /** Enables or disables one factor. One statement. */
  setFactor(tenantId: string, name: FactorName, enabled: boolean, now: string): Promise<void>;
  /** The tenant's policies; [] when never set. */
  policies(tenantId: string): Promise<MfaPolicy[]>;
  /** Replaces the tenant's policies. One statement. */
  setPolicies(tenantId: string, policies: readonly MfaPolicy[], now: string): Promise<void>;

  /** The SMS factor's provider and templates (the default templates until set). */
  smsSettings(tenantId: string): Promise<SmsSettings>;
  /** Replaces the Twilio settings (absent members are cleared). One statement. */
  setTwilio(tenantId: string, twilio: TwilioSettings, now: string): Promise<void>;
  /** Replaces the SMS templates. One statement. */
  setSmsTemplates(tenantId: string, templates: SmsTemplates, now: string): Promise<void>;
  /** Selects the phone factor's provider. One statement. */
  setPhoneProvider(tenantId: string, provider: PhoneProvider, now: string): Promise<void>;
  /** Replaces the phone factor's message types. One statement. */
  setPhoneMessageTypes(tenantId: string, types: readonly PhoneMessageType[], now: string): Promise<void>;
}

/** Users' enrolments (authenticators). */
export interface MfaAuthenticatorStore {
  /** The user's enrolments, oldest first. */
  authenticators(tenantId: string, userId: string): Promise<MfaAuthenticatorRow[]>;
  /** One enrolment by its stored id (`dev_…`), whoever it belongs to. */
  authenticator(tenantId: string, id: string): Promise<MfaAuthenticatorRow | undefined>;
  /** Stores a new enrolment; a foreign-key violation for an unknown user. */
  insertAuthenticator(row: MfaAuthenticatorRow): Promise<void>;
  /** Confirms an enrolment at `now` (first use); false when it is unknown or already confirmed. One conditional UPDATE. */
  confirmAuthenticator(tenantId: string, id: string, now: string): Promise<boolean>;
  /** Records a successful use at `now`. */
  touchAuthenticator(tenantId: string, id: string, now: string): Promise<void>;
  /** Names one of the user's enrolments; false when the user has no such enrolment. */
  renameAuthenticator(tenantId: string, userId: string, id: string, name: string | null): Promise<boolean>;
  /** Deletes one of the user's enrolments; false when the user has no such enrolment. */
  deleteAuthenticator(tenantId: string, userId: string, id: string): Promise<boolean>;
  /** Deletes every enrolment of the user (their recovery code included); returns how many. */
  deleteAuthenticators(tenantId: string, userId: string): Promise<number>;
}

/** WebAuthn credentials (enrolments with a `credential_id`). */
export interface MfaWebAuthnStore {
  /** The enrolment of the credential `credentialId` in the tenant, whoever it belongs to. */
  authenticatorByCredential(tenantId: string, credentialId: string): Promise<MfaAuthenticatorRow | undefined>;
  /**
   * Records a use of the credential with the authenticator's counter
   * `signCount`, if the stored counter is still `previous`: false when another
   * use got there first (of two concurrent assertions with one counter, one
   * wins). One conditional UPDATE.
   */
  advanceSignCount(tenantId: string, id: string, previous: number, signCount: number, now: string): Promise<boolean>;
}

/** Users' recovery codes (an enrolment of their own). */
export interface MfaRecoveryCodeStore {
  /**
   * Replaces the user's recovery code by `row` in one transaction: the old
   * one (if any) no longer works once this returns.
   */
  replaceRecoveryCode(row: MfaAuthenticatorRow): Promise<void>;
  /**
   * Spends the user's recovery code whose hash is `codeHash` and stores
   * `next` in its place, in one transaction; false (nothing changed) when the
   * user has no recovery code with that hash. Of two concurrent calls with
   * the same code at most one gets true.
   */
  spendRecoveryCode(tenantId: string, userId: string, codeHash: string, next: MfaAuthenticatorRow): Promise<boolean>;
}

/** Out-of-band challenges (codes sent by SMS or email, push requests). */
export interface MfaChallengeStore {
  /** Stores a new out-of-band challenge. */
  insertChallenge(row: Omit<MfaChallengeRow, 'used_at'>): Promise<void>;
  /** The challenge with this oob_code hash, used or not; undefined when unknown. */
  challenge(tenantId: string, oobHash: string): Promise<MfaChallengeRow | undefined>;
  /** Marks the challenge used if it is unused and unexpired at `now`; of two concurrent calls one gets true. */
  spendChallenge(tenantId: string, oobHash: string, now: string): Promise<boolean>;
}

/** Push: the enrolled device and the device's answers to challenges. */
export interface MfaPushStore {
  /**
   * Records the device of an unconfirmed push enrolment that has none yet
   * and confirms the enrolment at `now`; false (nothing changed) otherwise.
   * One conditional UPDATE: of two devices answering one enrolment, one wins.
   */
  setPushDevice(tenantId: string, id: string, device: PushDevice, now: string): Promise<boolean>;
  /** The push challenge (enrolment or login) whose transaction id hashes to `transactionHash`. */
  challengeByTransaction(tenantId: string, transactionHash: string): Promise<MfaChallengeRow | undefined>;
  /** Approves or denies a pending, unused, unexpired push challenge; false when it is none of these. One conditional UPDATE. */
  resolveChallenge(tenantId: string, transactionHash: string, status: 'approved' | 'denied', now: string): Promise<boolean>;
  /**
   * Records a poll of the challenge at `now` unless the last one was after
   * `lastPolledBefore` (then false: polled too fast). One conditional UPDATE.
   */
  pollChallenge(tenantId: string, oobHash: string, now: string, lastPolledBefore: string): Promise<boolean>;
}

/** The count of a user's wrong codes. */
export interface MfaFailureStore {
  /**
   * Counts one wrong code of the user and returns the count in the current
   * window: a window that started at or before `windowStartedAfter` is over,
   * and a new one starts at `now` with 1. One transaction.
   */
  recordFailure(tenantId: string, userId: string, now: string, windowStartedAfter: string): Promise<number>;
  /** The user's count of wrong codes in the window that started after `windowStartedAfter`; 0 without one. */
  failures(tenantId: string, userId: string, windowStartedAfter: string): Promise<number>;
  /** A right code: the count starts again. */
  clearFailures(tenantId: string, userId: string): Promise<void>;
}

/** Every multi-factor store in one, as src/storage/kysely/mfa.ts implements it. */
export interface MfaStore
  extends MfaSettingsStore, MfaAuthenticatorStore, MfaWebAuthnStore, MfaRecoveryCodeStore, MfaChallengeStore, MfaPushStore, MfaFailureStore {}

/**
 * The per-user epoch of MFA's remembered browsers (migration
 * 0246_mfa_remember_epochs): the remember-browser cookie's MAC covers it, so
 * raising it makes every browser remembered before ask for the second factor
 * again.
 */
export interface MfaRememberEpochStore {
  /** The user's epoch; 0 for a user that never had one raised. */
  epoch(tenantId: string, userId: string): Promise<number>;
  /** Raises the user's epoch by one at `now` (ISO). Fails with a foreign-key violation on an unknown user. */
  raise(tenantId: string, userId: string, now: string): Promise<void>;
}
