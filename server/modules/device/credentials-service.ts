/**
 * Device credentials (server/contract/credentials.ts): generated access tokens, X.509 RSA public
 * keys and MQTT basic credentials, and `authenticate`, the lookup the MQTT broker makes on CONNECT.
 *
 * Access tokens and MQTT identities are found through unique indexes (migration 0003). An MQTT
 * basic password is checked against its scrypt hash, which is slow on purpose (a few ms of CPU
 * each): after a power cut thousands of devices reconnect at once and would wait in line for it.
 * So a password that passed is remembered for the process's life, as a sha256 of the stored hash
 * and the presented password: the next CONNECT with the same password against the same stored
 * hash skips scrypt. New credentials have a new hash (a new salt), so an entry can never let in a
 * replaced password; entries go when the credentials change or the device is deleted.
 */
import { createHash, createPublicKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import { Compile } from 'typebox/compile';
import {
  ACCESS_TOKEN_LENGTH,
  ACCESS_TOKEN_PATTERN,
  canonicalCredentialsType,
  MqttBasicValueSchema,
  type CredentialsType,
  type CredentialsWrite,
  type DeviceCredentials,
  type DeviceCredentialsBody,
  type SpecCredentialsType,
  type MqttBasicValue,
  type MqttBasicView,
} from '../../contract/credentials.ts';
import type { Device } from '../../contract/device.ts';
import { transaction, type Db } from '../../db/sqlite.ts';
import type { EventBus } from '../../lib/event-bus.ts';
import { assertNoViolations, notFound, violationError, type Violation } from '../../lib/field-errors.ts';
import { deviceSecretCost, hashPassword, verifyPassword } from '../../lib/password.ts';
import type { CredentialsRepository, CredentialsRow } from './credentials-repository.ts';
import type { DeviceReader } from './device-reader.ts';
import { ALPHANUMERIC, randomText } from '../../lib/random-text.ts';

const tokenPattern = new RegExp(ACCESS_TOKEN_PATTERN);
const mqttValue = Compile(MqttBasicValueSchema);

/** What an MQTT client presents on CONNECT. */
export interface ConnectIdentity {
  username?: string | null;
  password?: string | Buffer | null;
  clientId?: string | null;
}

function sha256Hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

function violation(field: string, key: Violation['key']): Violation[] {
  return [{ field, key }];
}

/** The RSA public key in `pem` (a public key or a certificate), or the rule it breaks. */
function rsaPublicKey(pem: string | null | undefined): KeyObject | Violation[] {
  // createPublicKey would derive a public key from a private one: a private key must never be stored.
  if (!pem || !pem.includes('-----BEGIN') || pem.includes('PRIVATE KEY')) return violation('credentialsValue', 'error.credentials.pemInvalid');
  let key: KeyObject;
  try {
    key = createPublicKey({ key: pem, format: 'pem' });
  } catch {
    return violation('credentialsValue', 'error.credentials.pemInvalid');
  }
  return key.asymmetricKeyType === 'rsa' ? key : violation('credentialsValue', 'error.credentials.notRsa');
}

function parseMqttValue(text: string | null | undefined): MqttBasicValue | Violation[] {
  let value: unknown;
  try {
    value = JSON.parse(text ?? '');
  } catch {
    return violation('credentialsValue', 'error.credentials.mqttValueInvalid');
  }
  return mqttValue.Check(value) ? value : violation('credentialsValue', 'error.credentials.mqttValueInvalid');
}

function blankToNull(value: string | null | undefined): string | null {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

export interface CredentialsServiceDeps {
  db: Db;
  bus: EventBus;
  credentials: CredentialsRepository;
  devices: Pick<DeviceReader, 'findById'>;
}

export class CredentialsService {
  /** deviceId → sha256(stored scrypt hash, NUL, presented password) of the last password that passed. */
  private readonly verified = new Map<string, Buffer>();

  constructor(private readonly deps: CredentialsServiceDeps) {}

  /** Forgets a device's remembered MQTT password (its credentials changed, or it was deleted). */
  forgetVerified(deviceId: string): void {
    this.verified.delete(deviceId);
  }

  /** A new 20-character [A-Za-z0-9] token no device holds. */
  generateToken(): string {
    for (;;) {
      const token = randomText(ALPHANUMERIC, ACCESS_TOKEN_LENGTH);
      if (this.tokenViolations(token).length === 0) return token;
    }
  }

  /**
   * Why `token` cannot be `deviceId`'s access token, if it cannot: its format, or another device
   * presenting it (as a token or as an MQTT user name, both arrive as the MQTT user name).
   */
  tokenViolations(token: string, deviceId?: string, field = 'credentialsId'): Violation[] {
    if (!tokenPattern.test(token)) return violation(field, 'error.credentials.tokenInvalid');
    const { credentials } = this.deps;
    const holder = credentials.findByCredentialsId(token) ?? credentials.findByUserName(token);
    return holder && holder.deviceId !== deviceId ? violation(field, 'error.credentials.tokenTaken') : [];
  }

  /** Gives a new device its access token (inside the caller's transaction). */
  issueAccessToken(deviceId: string, token: string, time: number): void {
    this.deps.credentials.insert(accessTokenRow(deviceId, token, time));
  }

  get(deviceId: string): DeviceCredentials {
    const row = this.deps.credentials.findByDevice(deviceId);
    if (!row) throw notFound();
    return viewOf(row);
  }

  /** Replaces the credentials; the transport is told to drop sessions opened with the old ones. */
  async update(deviceId: string, body: DeviceCredentialsBody): Promise<DeviceCredentials> {
    const current = this.deps.credentials.findByDevice(deviceId);
    if (!current) throw notFound();
    const write = await this.writerOf({ ...body, credentialsType: canonicalCredentialsType(body.credentialsType) });
    const row = transaction(this.deps.db, () => write(deviceId, Date.now()));
    this.deps.bus.emit('device.credentialsChanged', { deviceId, credentialsType: row.credentialsType });
    return viewOf(row);
  }

  /**
   * What stores `body` as a device's credentials: checked (taken, malformed) and stored when called,
   * inside the caller's transaction, where nothing can take a value between check and write. A
   * device being created (provisioning) replaces its generated token with them this way.
   */
  async writerOf(body: CredentialsWrite): Promise<(deviceId: string, now: number) => CredentialsRow> {
    // Hashing takes a few ms: done before the transaction, whose checks then run uninterrupted.
    const mqtt = body.credentialsType === 'MQTT_BASIC' ? parseMqttValue(body.credentialsValue) : undefined;
    const passwordHash = mqtt && !Array.isArray(mqtt) && mqtt.password ? await hashPassword(mqtt.password, deviceSecretCost) : undefined;
    return (deviceId, now) => {
      const next = this.rowOf(deviceId, body, mqtt, passwordHash, now);
      this.deps.credentials.replace(next);
      return next;
    };
  }

  /** A new generated ACCESS_TOKEN, whatever the type was. */
  regenerate(deviceId: string): DeviceCredentials {
    const row = transaction(this.deps.db, () => {
      if (!this.deps.credentials.findByDevice(deviceId)) throw notFound();
      const next = accessTokenRow(deviceId, this.generateToken(), Date.now());
      this.deps.credentials.replace(next);
      return next;
    });
    this.deps.bus.emit('device.credentialsChanged', { deviceId, credentialsType: 'ACCESS_TOKEN' });
    return viewOf(row);
  }

  /**
   * The device an MQTT CONNECT authenticates, or null. In order:
   * 1. `username` is an ACCESS_TOKEN (the password is ignored, as in ThingsBoard);
   * 2. MQTT_BASIC by `clientId` (its userName, when set, must equal `username`), else by
   *    `username` among credentials without a clientId; a stored password must match.
   * X.509 clients authenticate by their key: see `authenticateX509`.
   */
  async authenticate(identity: ConnectIdentity): Promise<Device | null> {
    const { credentials } = this.deps;
    const username = identity.username || null;
    const clientId = identity.clientId || null;
    if (username) {
      const byToken = credentials.findByCredentialsId(username);
      if (byToken?.credentialsType === 'ACCESS_TOKEN') return this.deviceOf(byToken);
    }
    const byClientId = clientId ? credentials.findByClientId(clientId) : undefined;
    const byUserName = !byClientId && username ? credentials.findByUserName(username) : undefined;
    const row = byClientId ?? byUserName;
    if (!row) return null;
    // Credentials naming both must be presented with both.
    if (byClientId && row.mqttUserName !== null && row.mqttUserName !== username) return null;
    if (byUserName && row.mqttClientId !== null) return null;
    if (row.mqttPasswordHash !== null) {
      const password = identity.password ? identity.password.toString() : '';
      if (!password || !(await this.passwordMatches(row.deviceId, password, row.mqttPasswordHash))) return null;
    }
    return this.deviceOf(row);
  }

  /** scrypt, unless this very password passed against this very hash before. */
  private async passwordMatches(deviceId: string, password: string, stored: string): Promise<boolean> {
    const seen = createHash('sha256').update(stored).update('\0').update(password).digest();
    const known = this.verified.get(deviceId);
    if (known && timingSafeEqual(known, seen)) return true;
    if (!(await verifyPassword(password, stored))) return false;
    this.verified.set(deviceId, seen);
    return true;
  }

  /** The device whose X509_CERTIFICATE credentials hold the public key of `pem` (key or certificate). */
  authenticateX509(pem: string): Device | null {
    const key = rsaPublicKey(pem);
    if (Array.isArray(key)) return null;
    const row = this.deps.credentials.findByCredentialsId(fingerprint(key));
    return row?.credentialsType === 'X509_CERTIFICATE' ? this.deviceOf(row) : null;
  }

  private deviceOf(row: CredentialsRow): Device | null {
    return this.deps.devices.findById(row.deviceId) ?? null;
  }

  private rowOf(
    deviceId: string,
    body: CredentialsWrite,
    mqtt: MqttBasicValue | Violation[] | undefined,
    passwordHash: string | undefined,
    now: number,
  ): CredentialsRow {
    switch (body.credentialsType) {
      case 'ACCESS_TOKEN': {
        const token = blankToNull(body.credentialsId) ?? this.generateToken();
        assertNoViolations(this.tokenViolations(token, deviceId));
        return accessTokenRow(deviceId, token, now);
      }
      case 'X509_CERTIFICATE': {
        const key = rsaPublicKey(body.credentialsValue);
        if (Array.isArray(key)) throw violationError(key);
        const credentialsId = fingerprint(key);
        const holder = this.deps.credentials.findByCredentialsId(credentialsId);
        if (holder && holder.deviceId !== deviceId) assertNoViolations(violation('credentialsValue', 'error.credentials.certificateTaken'));
        const pem = key.export({ type: 'spki', format: 'pem' }).toString();
        return { ...emptyRow(deviceId, 'X509_CERTIFICATE', credentialsId, now), credentialsValue: pem };
      }
      case 'MQTT_BASIC':
        return this.mqttRow(deviceId, mqtt, passwordHash, now);
    }
  }

  private mqttRow(deviceId: string, mqtt: MqttBasicValue | Violation[] | undefined, passwordHash: string | undefined, now: number): CredentialsRow {
    if (mqtt === undefined || Array.isArray(mqtt)) throw violationError(mqtt ?? violation('credentialsValue', 'error.credentials.mqttValueInvalid'));
    const { credentials } = this.deps;
    const clientId = blankToNull(mqtt.clientId);
    const userName = blankToNull(mqtt.userName);
    if (clientId === null && userName === null) assertNoViolations(violation('credentialsValue', 'error.credentials.mqttIdentityRequired'));
    const found: Violation[] = [];
    const clientHolder = clientId === null ? undefined : credentials.findByClientId(clientId);
    if (clientHolder && clientHolder.deviceId !== deviceId) found.push({ field: 'credentialsValue.clientId', key: 'error.credentials.clientIdTaken' });
    if (userName !== null) {
      const userHolder = credentials.findByUserName(userName) ?? credentials.findByCredentialsId(userName);
      if (userHolder && userHolder.deviceId !== deviceId) found.push({ field: 'credentialsValue.userName', key: 'error.credentials.userNameTaken' });
    }
    assertNoViolations(found);
    // A left-out password keeps the stored one (the form shows none); null or empty removes it.
    const current = credentials.findByDevice(deviceId);
    const keep = mqtt.password === undefined && current?.credentialsType === 'MQTT_BASIC' ? current.mqttPasswordHash : null;
    return {
      ...emptyRow(deviceId, 'MQTT_BASIC', sha256Hex(`${clientId ?? ''}|${userName ?? ''}`), now),
      mqttClientId: clientId,
      mqttUserName: userName,
      mqttPasswordHash: passwordHash ?? keep,
    };
  }
}

/** sha256 hex of the key's DER (SPKI) encoding: the X509_CERTIFICATE credentialsId. */
function fingerprint(key: KeyObject): string {
  return sha256Hex(key.export({ type: 'spki', format: 'der' }));
}

function emptyRow(deviceId: string, credentialsType: CredentialsType, credentialsId: string, now: number): CredentialsRow {
  return {
    deviceId,
    credentialsType,
    credentialsId,
    credentialsValue: null,
    mqttClientId: null,
    mqttUserName: null,
    mqttPasswordHash: null,
    updatedTime: now,
  };
}

function accessTokenRow(deviceId: string, token: string, now: number): CredentialsRow {
  return emptyRow(deviceId, 'ACCESS_TOKEN', token, now);
}

function viewOf(row: CredentialsRow): DeviceCredentials {
  const base = { credentialsType: row.credentialsType, credentialsId: row.credentialsId, updatedTime: row.updatedTime };
  if (row.credentialsType !== 'MQTT_BASIC') {
    return { ...base, credentialsValue: row.credentialsValue, specTypes: [row.credentialsType === 'X509_CERTIFICATE' ? 'X509' : 'ACCESS_TOKEN'] };
  }
  const view: MqttBasicView = { clientId: row.mqttClientId, userName: row.mqttUserName, passwordSet: row.mqttPasswordHash !== null };
  const specTypes: SpecCredentialsType[] = [];
  if (view.clientId !== null) specTypes.push('MQTT_CLIENT_ID');
  if (view.userName !== null) specTypes.push('MQTT_USER_NAME');
  if (view.passwordSet) specTypes.push('MQTT_PASSWORD');
  return { ...base, credentialsValue: JSON.stringify(view), specTypes };
}
