import { describe, expect, it } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import {
  credentialsToValues,
  mqttProblems,
  pemProblem,
  tokenProblem,
  valuesToBody,
  type CredentialsValues,
} from '../../web/features/device/credentialsForm.ts';

const blank: CredentialsValues = {
  credentialsType: 'ACCESS_TOKEN',
  token: '',
  pem: '',
  clientId: '',
  userName: '',
  password: '',
  clearPassword: false,
};

describe('credentials form', () => {
  it('shows an access token as the token field', () => {
    const values = credentialsToValues({ credentialsType: 'ACCESS_TOKEN', credentialsId: 'abc', credentialsValue: null, specTypes: ['ACCESS_TOKEN'], updatedTime: 1 });
    expect(values).toMatchObject({ credentialsType: 'ACCESS_TOKEN', token: 'abc', pem: '' });
  });

  it('shows MQTT basic client ID and user name, never a password', () => {
    const values = credentialsToValues({
      credentialsType: 'MQTT_BASIC',
      credentialsId: 'x',
      credentialsValue: JSON.stringify({ clientId: 'c1', userName: null, passwordSet: true }),
      specTypes: ['MQTT_CLIENT_ID', 'MQTT_PASSWORD'],
      updatedTime: 1,
    });
    expect(values).toMatchObject({ clientId: 'c1', userName: '', password: '' });
  });

  it('refuses a token with a space or a slash and accepts an empty one (generated)', () => {
    expect(tokenProblem('')).toBeNull();
    expect(tokenProblem('A1b2._~-')).toBeNull();
    expect(tokenProblem('a b')).toBe('credentials.tokenInvalid');
    expect(tokenProblem('a/b')).toBe('credentials.tokenInvalid');
    expect(tokenProblem('a'.repeat(65))).toBe('credentials.tokenInvalid');
  });

  it('accepts a real RSA public key in PEM and refuses a half-pasted one', () => {
    const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    expect(pemProblem(pem)).toBeNull();
    expect(pemProblem(pem.split('\n').slice(0, 3).join('\n'))).toBe('credentials.pemInvalid');
    expect(pemProblem('hello')).toBe('credentials.pemInvalid');
  });

  it('refuses a private key pasted as the public key', () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
    expect(pemProblem(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString())).toBe('credentials.pemInvalid');
  });

  it('requires a client ID or a user name for MQTT basic', () => {
    expect(mqttProblems({ clientId: ' ', userName: '', password: 'x' })).toEqual({
      clientId: 'credentials.mqttIdentityRequired',
      userName: 'credentials.mqttIdentityRequired',
    });
    expect(mqttProblems({ clientId: '', userName: 'u', password: '' })).toEqual({});
  });

  it('asks the server for a new token when the token field is empty', () => {
    expect(valuesToBody(blank)).toEqual({ credentialsType: 'ACCESS_TOKEN' });
    expect(valuesToBody({ ...blank, token: ' mine ' })).toEqual({ credentialsType: 'ACCESS_TOKEN', credentialsId: 'mine' });
  });

  it('keeps the stored MQTT password when none is typed and removes it when asked', () => {
    const mqtt = { ...blank, credentialsType: 'MQTT_BASIC' as const, clientId: 'c1' };
    expect(JSON.parse(valuesToBody(mqtt).credentialsValue!)).toEqual({ clientId: 'c1', userName: null });
    expect(JSON.parse(valuesToBody({ ...mqtt, password: 'p' }).credentialsValue!)).toEqual({ clientId: 'c1', userName: null, password: 'p' });
    expect(JSON.parse(valuesToBody({ ...mqtt, clearPassword: true }).credentialsValue!)).toEqual({ clientId: 'c1', userName: null, password: null });
  });

  it('sends the PEM trimmed for X509', () => {
    expect(valuesToBody({ ...blank, credentialsType: 'X509_CERTIFICATE', pem: '\n-----BEGIN PUBLIC KEY-----\nAA==\n-----END PUBLIC KEY-----\n' })).toEqual({
      credentialsType: 'X509_CERTIFICATE',
      credentialsValue: '-----BEGIN PUBLIC KEY-----\nAA==\n-----END PUBLIC KEY-----',
    });
  });
});
