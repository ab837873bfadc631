/**
 * The cloud platform's fields, for the wizard's step 2 and the system configuration's cloud card:
 * MQTT address, port, key, secret (empty: the key is an access token), TLS, and the cloud's HTTP
 * address for cloud-account sign-in, the cloud's CA certificate (CloudCaField.tsx). Rules are the contract's, so the form refuses what the server
 * refuses. Place inside an Arco Form whose values are CloudValues (cloudForm.ts).
 */
import type { JSX } from 'react';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import Switch from '@arco-design/web-react/es/Switch';
import { useTranslation } from 'react-i18next';
import { PLATFORM_HTTP_URL_MAX } from '../../../server/contract/cloud.ts';
import { cloudHttpUrlProblem } from '../../../server/contract/rules/cloud-http-url.ts';
import type { CloudConfigView } from '../../../server/contract/cloud.ts';
import { trimmedRule } from '../../lib/form-rules.ts';
import { CloudCaField } from './CloudCaField.tsx';
import './cloud.css';
import { isPlatformAddress, parsePort } from './cloudRules.ts';

/** The contract's length limit of the key and the secret. */
const CREDENTIAL_MAX = 128;

export function CloudFields({ testIdPrefix, storedCa }: { testIdPrefix: string; storedCa: NonNullable<CloudConfigView>['platformCa'] }): JSX.Element {
  const { t } = useTranslation(['guide', 'errors']);
  const id = (name: string): string => `${testIdPrefix}-${name}`;
  const required = (message: string) => ({ required: true, message });
  const notBlank = (message: string) => ({
    validator: (v: string | undefined, cb: (e?: string) => void) => cb(v && !v.trim() ? message : undefined),
  });
  const tooLong = { maxLength: CREDENTIAL_MAX, message: t('cloud.tooLong', { max: CREDENTIAL_MAX }) };

  return (
    <>
      <div className="ec-cloud-row">
        <Form.Item
          className="ec-cloud-grow"
          field="platformAddress"
          label={t('cloud.address')}
          rules={[
            required(t('cloud.addressRequired')),
            {
              validator: (v: string | undefined, cb) => cb(v && !isPlatformAddress(v.trim()) ? t('errors:cloud.addressInvalid') : undefined),
            },
          ]}
        >
          <Input placeholder={t('cloud.addressPlaceholder')} autoComplete="off" data-testid={id('address')} />
        </Form.Item>
        <Form.Item
          className="ec-cloud-port"
          field="platformPort"
          label={t('cloud.port')}
          rules={[
            required(t('cloud.portInvalid')),
            { validator: (v: string | undefined, cb) => cb(v && parsePort(v) === null ? t('cloud.portInvalid') : undefined) },
          ]}
        >
          <Input placeholder={t('cloud.portPlaceholder')} inputMode="numeric" autoComplete="off" data-testid={id('port')} />
        </Form.Item>
      </div>
      <Form.Item field="platformKey" label={t('cloud.key')} rules={[required(t('cloud.keyRequired')), notBlank(t('cloud.keyRequired')), tooLong]}>
        <Input placeholder={t('cloud.keyPlaceholder')} autoComplete="off" data-testid={id('key')} />
      </Form.Item>
      <Form.Item field="platformSecret" label={t('cloud.secret')} rules={[tooLong]} extra={t('cloud.secretHint')}>
        <Input.Password placeholder={t('cloud.secretPlaceholder')} autoComplete="new-password" data-testid={id('secret')} />
      </Form.Item>
      <Form.Item field="platformTls" label={t('cloud.tls')} triggerPropName="checked" extra={t('cloud.tlsHint')}>
        <Switch aria-label={t('cloud.tls')} data-testid={id('tls')} />
      </Form.Item>
      <CloudCaField stored={storedCa} testId={id('ca')} />
      <Form.Item field="platformHttpUrl" label={t('cloud.httpUrl')} rules={[trimmedRule(cloudHttpUrlProblem)]} extra={t('cloud.httpUrlHint')}>
        <Input placeholder={t('cloud.httpUrlPlaceholder')} maxLength={PLATFORM_HTTP_URL_MAX} autoComplete="off" data-testid={id('http-url')} />
      </Form.Item>
    </>
  );
}
