/**
 * The fields of a wired interface (LAN and WAN): connection type, then under a fixed IP the
 * address, mask, gateway and DNS; the LAN adds its DHCP server. The cross-field rules (gateway and
 * pool inside the subnet) are the server's, shown beside the field they name.
 */
import type { JSX } from 'react';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import Radio from '@arco-design/web-react/es/Radio';
import Switch from '@arco-design/web-react/es/Switch';
import type { FormInstance } from '@arco-design/web-react/es/Form';
import { useTranslation } from 'react-i18next';
import { connectionTypes } from '../../../server/contract/network.ts';
import { ipv4Problem, subnetMaskProblem } from '../../../server/contract/rules/network.ts';
import { trimmedRule } from '../../lib/form-rules.ts';
import type { Section, SectionValues } from './network-form.ts';

interface InterfaceFieldsProps {
  section: Extract<Section, 'lan' | 'wan'>;
  form: FormInstance<SectionValues>;
  /** NetworkManager 1.42's `shared` method picks its own pool: the fields are kept but not applied (docs/NETWORK.md). */
  poolNotApplied: boolean;
}

export function InterfaceFields({ section, form, poolNotApplied }: InterfaceFieldsProps): JSX.Element {
  const { t } = useTranslation('network');
  const fixed = (Form.useWatch('connectionType', form) as SectionValues['connectionType']) === 'IMMOBILIZATION';
  const dhcp = Form.useWatch('dhcpEnabled', form) as boolean | undefined;
  const id = (field: string): string => `network-${section}-${field}`;
  return (
    <>
      <Form.Item field="connectionType" label={t('field.connectionType')}>
        <Radio.Group type="button" data-testid={id('connectionType')}>
          {connectionTypes.map((c) => (
            <Radio key={c} value={c} data-testid={id(`connectionType-${c}`)}>
              {t(`connectionType.${c}`)}
            </Radio>
          ))}
        </Radio.Group>
      </Form.Item>
      <Form.Item field="ipAddress" label={t('field.ipAddress')} disabled={!fixed} rules={fixed ? [trimmedRule(ipv4Problem)] : []}>
        <Input autoComplete="off" placeholder="192.168.1.1" data-testid={id('ipAddress')} />
      </Form.Item>
      <Form.Item field="subnetMask" label={t('field.subnetMask')} disabled={!fixed} rules={fixed ? [trimmedRule(subnetMaskProblem)] : []}>
        <Input autoComplete="off" placeholder="255.255.255.0" data-testid={id('subnetMask')} />
      </Form.Item>
      <Form.Item field="gateway" label={t('field.gateway')} disabled={!fixed}>
        <Input autoComplete="off" data-testid={id('gateway')} />
      </Form.Item>
      <Form.Item field="dns" label={t('field.dns')} extra={t('field.dnsHint')}>
        <Input autoComplete="off" placeholder="223.5.5.5, 114.114.114.114" data-testid={id('dns')} />
      </Form.Item>
      {section === 'lan' && (
        <>
          <Form.Item field="dhcpEnabled" label={t('field.dhcpServer')} triggerPropName="checked">
            <Switch data-testid={id('dhcpEnabled')} />
          </Form.Item>
          <Form.Item field="poolStart" label={t('field.poolStart')} disabled={!dhcp}>
            <Input autoComplete="off" data-testid={id('poolStart')} />
          </Form.Item>
          <Form.Item field="poolEnd" label={t('field.poolEnd')} disabled={!dhcp} extra={poolNotApplied ? <span data-testid={id('poolNotApplied')}>{t('field.poolNotApplied')}</span> : undefined}>
            <Input autoComplete="off" data-testid={id('poolEnd')} />
          </Form.Item>
        </>
      )}
    </>
  );
}
