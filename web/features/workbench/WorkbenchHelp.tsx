/**
 * The workbench's help documents: the offline manual (/offline-word, inside the binary), the
 * OpenAPI reference and three short how-tos (provisioning a gateway, connecting a device over
 * MQTT, renewing the licence), each in a dialog that links to its section of the manual. The
 * commands shown use this gateway's own address and the contract's paths and topics.
 */
import { useState, type JSX, type ReactNode } from 'react';
import Modal from '@arco-design/web-react/es/Modal';
import Spin from '@arco-design/web-react/es/Spin';
import IconBook from '@arco-design/web-react/icon/react-icon/IconBook';
import IconCodeSquare from '@arco-design/web-react/icon/react-icon/IconCodeSquare';
import IconLaunch from '@arco-design/web-react/icon/react-icon/IconLaunch';
import IconSafe from '@arco-design/web-react/icon/react-icon/IconSafe';
import IconSend from '@arco-design/web-react/icon/react-icon/IconSend';
import IconFile from '@arco-design/web-react/icon/react-icon/IconFile';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { consolePaths } from '../../../server/contract/console-paths.ts';
import { deviceTopics } from '../../../server/contract/device-api.ts';
import { deviceImportRoutes } from '../../../server/contract/device-import.ts';
import { authRoutes } from '../../../server/contract/auth.ts';
import { cloudRoutes } from '../../../server/contract/cloud.ts';
import { licenseRoutes, SETUP_CODE_HEADER } from '../../../server/contract/license.ts';
import { CodeBlock } from '../../components/CodeBlock.tsx';
import { mosquittoConnection, useDeviceAccess } from '../device/deviceAccessApi.ts';
import { workbenchManualSections } from '../help/manual-anchors.ts';

type HowTo = 'provisioning' | 'mqtt' | 'license';

const API_DOCS_PATH = '/api/docs';

function Code({ children }: { children: string }): JSX.Element {
  return <CodeBlock text={children} />;
}

function Provisioning({ base }: { base: string }): JSX.Element {
  const { t } = useTranslation('workbench');
  const code = `${SETUP_CODE_HEADER}: <setup-code>`;
  return (
    <>
      <p>{t('help.provisioning.intro')}</p>
      <p>{t('help.provisioning.stepLicense')}</p>
      <Code>{`curl -X POST ${base}${licenseRoutes.upload.url} \\\n  -H '${code}' -F file=@edge.lic`}</Code>
      <p>{t('help.provisioning.stepCloud')}</p>
      <Code>
        {`curl -X PUT ${base}${cloudRoutes.save.url} \\\n  -H '${code}' -H 'content-type: application/json' \\\n  -d '{"platformAddress":"cloud.example.com","platformPort":1883,"platformKey":"<key>","platformSecret":"<secret>"}'`}
      </Code>
      <p>{t('help.provisioning.stepAdmin')}</p>
      <Code>
        {`curl -X POST ${base}${licenseRoutes.setupAdmin.url} \\\n  -H '${code}' -H 'content-type: application/json' \\\n  -d '{"username":"admin","password":"<password>","platformName":"Edge"}'`}
      </Code>
      <p>{t('help.provisioning.devices')}</p>
      <Code>
        {`curl -X POST ${base}${authRoutes.login.url} -H 'content-type: application/json' \\\n  -d '{"username":"admin","password":"<password>"}'\ncurl -X POST ${base}${deviceImportRoutes.batch.url} \\\n  -H 'Authorization: Bearer <token>' -H 'content-type: application/json' \\\n  -d '{"deviceProfileId":"<product id>","count":100,"aliasPrefix":"Room "}'`}
      </Code>
    </>
  );
}

function Mqtt({ host }: { host: string }): JSX.Element {
  const { t } = useTranslation('workbench');
  const topics: [string, string][] = [
    [deviceTopics.telemetry, t('help.mqtt.topicTelemetry')],
    [deviceTopics.attributes, t('help.mqtt.topicAttributes')],
    [deviceTopics.events, t('help.mqtt.topicEvents')],
    [`${deviceTopics.rpcRequest}+`, t('help.mqtt.topicRpcRequest')],
    [`${deviceTopics.rpcResponse}{id}`, t('help.mqtt.topicRpcResponse')],
  ];
  const access = useDeviceAccess();
  if (!access) return <Spin />;
  const connect = mosquittoConnection(host, access);
  return (
    <>
      <p>{t('help.mqtt.intro', { port: access.mqttPort })}</p>
      <h4 className="ec-help__subtitle">{t('help.mqtt.topics')}</h4>
      <table className="ec-help__topics" data-testid="help-mqtt-topics">
        <tbody>
          {topics.map(([topic, text]) => (
            <tr key={topic}>
              <td>
                <code>{topic}</code>
              </td>
              <td>{text}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>{t('help.mqtt.publishExample')}</p>
      <Code>{`mosquitto_pub ${connect} -q 1 \\\n  -t ${deviceTopics.telemetry} -m '{"temperature":25.3,"humidity":60}'`}</Code>
      <p>{t('help.mqtt.subscribeExample')}</p>
      <Code>{`mosquitto_sub ${connect} -q 1 -v \\\n  -t '${deviceTopics.rpcRequest}+'`}</Code>
      {access.mqttsPort !== null ? (
        <>
          <p>{t('help.mqtt.tlsExample', { port: access.mqttsPort })}</p>
          <Code>{`mosquitto_pub ${mosquittoConnection(host, access, true)} -q 1 \\\n  -t ${deviceTopics.telemetry} -m '{"temperature":25.3}'`}</Code>
        </>
      ) : null}
      <p>{t('help.mqtt.note')}</p>
    </>
  );
}

function License({ base }: { base: string }): JSX.Element {
  const { t } = useTranslation('workbench');
  return (
    <>
      <p>{t('help.license.intro')}</p>
      <Code>{`curl ${base}${licenseRoutes.setupState.url}`}</Code>
      <p>{t('help.license.upload')}</p>
      <Code>{`curl -X POST ${base}${licenseRoutes.upload.url} \\\n  -H 'Authorization: Bearer <token>' -F file=@edge.lic`}</Code>
      <p>{t('help.license.expired')}</p>
    </>
  );
}

interface HelpEntryProps {
  icon: ReactNode;
  title: string;
  summary: string;
  testId: string;
  href?: string;
  /** A console path, opened in this tab. */
  to?: string;
  onOpen?: () => void;
}

function HelpEntry({ icon, title, summary, testId, href, to, onOpen }: HelpEntryProps): JSX.Element {
  const body = (
    <>
      <span className="ec-help__icon">{icon}</span>
      <span className="ec-help__text">
        <span className="ec-help__title">
          {title}
          {href ? <IconLaunch className="ec-help__launch" /> : null}
        </span>
        <span className="ec-help__summary">{summary}</span>
      </span>
    </>
  );
  return (
    <li>
      {to ? (
        <Link className="ec-help__entry" href={to} data-testid={testId}>
          {body}
        </Link>
      ) : href ? (
        <a className="ec-help__entry" href={href} target="_blank" rel="noopener noreferrer" data-testid={testId}>
          {body}
        </a>
      ) : (
        <button type="button" className="ec-help__entry" onClick={onOpen} data-testid={testId}>
          {body}
        </button>
      )}
    </li>
  );
}

export function WorkbenchHelp(): JSX.Element {
  const { t } = useTranslation(['workbench', 'manual']);
  const [open, setOpen] = useState<HowTo | null>(null);
  const { protocol, host, hostname } = window.location;
  const base = `${protocol}//${host}`;
  const howTos: { key: HowTo; icon: ReactNode }[] = [
    { key: 'provisioning', icon: <IconSafe /> },
    { key: 'mqtt', icon: <IconSend /> },
    { key: 'license', icon: <IconCodeSquare /> },
  ];
  return (
    <>
      <ul className="ec-help" data-testid="workbench-help">
        <HelpEntry
          icon={<IconFile />}
          title={t('manual:offlineManual')}
          summary={t('manual:offlineManualHint')}
          to={consolePaths.offlineWord}
          testId="help-manual"
        />
        <HelpEntry
          icon={<IconBook />}
          title={t('help.openApi')}
          summary={t('help.openApiHint')}
          href={API_DOCS_PATH}
          testId="help-openapi"
        />
        {howTos.map(({ key, icon }) => (
          <HelpEntry
            key={key}
            icon={icon}
            title={t(`help.${key}.title`)}
            summary={t(`help.${key}.summary`)}
            onOpen={() => setOpen(key)}
            testId={`help-${key}`}
          />
        ))}
      </ul>
      <Modal
        visible={open !== null}
        title={open ? t(`help.${open}.title`) : ''}
        onCancel={() => setOpen(null)}
        onOk={() => setOpen(null)}
        okText={t('help.close')}
        hideCancel
        style={{ width: 720, maxWidth: 'calc(100vw - 32px)' }}
        className="ec-help__dialog"
        okButtonProps={{ 'data-testid': 'help-close' } as Record<string, unknown>}
        unmountOnExit
      >
        <div className="ec-help__body" data-testid={open ? `help-body-${open}` : undefined}>
          {open === 'provisioning' ? <Provisioning base={base} /> : null}
          {open === 'mqtt' ? <Mqtt host={hostname} /> : null}
          {open === 'license' ? <License base={base} /> : null}
          {open ? (
            <p className="ec-help__manual">
              <Link href={`${consolePaths.offlineWord}#${workbenchManualSections[open]}`} data-testid="help-open-manual">
                {t('manual:openManual')}
              </Link>
            </p>
          ) : null}
        </div>
      </Modal>
    </>
  );
}
