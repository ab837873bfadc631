/**
 * The device credentials form (server/contract/credentials.ts): the stored credentials as form
 * values, the inline checks, and the values as the PUT body. The server parses the key properly
 * (RSA or not); the console only checks the PEM's shape so an obvious paste mistake shows at once.
 */
import {
  ACCESS_TOKEN_PATTERN,
  MQTT_FIELD_MAX,
  PEM_MAX,
  type CredentialsType,
  type DeviceCredentials,
  type DeviceCredentialsBody,
  type MqttBasicValue,
  type MqttBasicView,
} from '../../../server/contract/credentials.ts';

export interface CredentialsValues {
  credentialsType: CredentialsType;
  /** ACCESS_TOKEN: the token; empty asks the server to generate one. */
  token: string;
  /** X509_CERTIFICATE: the RSA public key (or certificate) in PEM. */
  pem: string;
  clientId: string;
  userName: string;
  /** MQTT_BASIC: a new password; empty keeps the stored one (unless `clearPassword`). */
  password: string;
  clearPassword: boolean;
}

/** Problems as keys of the `errors` namespace (the server's texts for the same refusals). */
export type CredentialsErrorKey =
  | 'credentials.tokenInvalid'
  | 'credentials.pemInvalid'
  | 'credentials.mqttIdentityRequired'
  | 'credentials.mqttValueInvalid';

const tokenPattern = new RegExp(ACCESS_TOKEN_PATTERN);
const pemBlock = /^-----BEGIN (PUBLIC KEY|RSA PUBLIC KEY|CERTIFICATE)-----\s+([A-Za-z0-9+/=\s]+?)\s*-----END \1-----$/;

/** What the stored MQTT_BASIC value says; an unreadable value reads as empty. */
export function parseMqttView(value: string | null): MqttBasicView {
  try {
    const parsed = JSON.parse(value ?? '') as Partial<MqttBasicView> | null;
    return {
      clientId: typeof parsed?.clientId === 'string' ? parsed.clientId : null,
      userName: typeof parsed?.userName === 'string' ? parsed.userName : null,
      passwordSet: parsed?.passwordSet === true,
    };
  } catch {
    return { clientId: null, userName: null, passwordSet: false };
  }
}

export function credentialsToValues(c: DeviceCredentials): CredentialsValues {
  const mqtt = c.credentialsType === 'MQTT_BASIC' ? parseMqttView(c.credentialsValue) : null;
  return {
    credentialsType: c.credentialsType,
    token: c.credentialsType === 'ACCESS_TOKEN' ? c.credentialsId : '',
    pem: c.credentialsType === 'X509_CERTIFICATE' ? (c.credentialsValue ?? '') : '',
    clientId: mqtt?.clientId ?? '',
    userName: mqtt?.userName ?? '',
    password: '',
    clearPassword: false,
  };
}

export function tokenProblem(token: string): CredentialsErrorKey | null {
  const v = token.trim();
  return !v || tokenPattern.test(v) ? null : 'credentials.tokenInvalid';
}

/** One PEM block of a public key or certificate, with base64 content. */
export function pemProblem(pem: string): CredentialsErrorKey | null {
  const v = pem.trim();
  return v.length <= PEM_MAX && pemBlock.test(v) ? null : 'credentials.pemInvalid';
}

export function mqttProblems(values: Pick<CredentialsValues, 'clientId' | 'userName' | 'password'>): Partial<
  Record<'clientId' | 'userName' | 'password', CredentialsErrorKey>
> {
  const out: Partial<Record<'clientId' | 'userName' | 'password', CredentialsErrorKey>> = {};
  const clientId = values.clientId.trim();
  const userName = values.userName.trim();
  if (!clientId && !userName) {
    out.clientId = 'credentials.mqttIdentityRequired';
    out.userName = 'credentials.mqttIdentityRequired';
  }
  for (const field of ['clientId', 'userName', 'password'] as const) {
    if (values[field].length > MQTT_FIELD_MAX) out[field] = 'credentials.mqttValueInvalid';
  }
  return out;
}

/** The PUT body for the values of the chosen type (other types' fields are ignored). */
export function valuesToBody(values: CredentialsValues): DeviceCredentialsBody {
  switch (values.credentialsType) {
    case 'ACCESS_TOKEN': {
      const token = values.token.trim();
      return token ? { credentialsType: 'ACCESS_TOKEN', credentialsId: token } : { credentialsType: 'ACCESS_TOKEN' };
    }
    case 'X509_CERTIFICATE':
      return { credentialsType: 'X509_CERTIFICATE', credentialsValue: values.pem.trim() };
    case 'MQTT_BASIC': {
      const value: MqttBasicValue = {
        clientId: values.clientId.trim() || null,
        userName: values.userName.trim() || null,
      };
      // Left out keeps the stored password; null removes it.
      if (values.password) value.password = values.password;
      else if (values.clearPassword) value.password = null;
      return { credentialsType: 'MQTT_BASIC', credentialsValue: JSON.stringify(value) };
    }
  }
}
