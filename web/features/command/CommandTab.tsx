/**
 * Device detail → command delivery records:
 * issuance time, command type, call type, way, status (all eight), content, response type and the
 * device's answer in a JSON viewer; refresh and paging. Status changes arrive live over /api/ws
 * (COMMANDS): a row follows its command QUEUED → SENT → DELIVERED → SUCCESSFUL without a reload;
 * a command that is new to the page reloads it. Without the live subscription (an upstream that
 * does not know it) the list is polled while a command is under way.
 * The header holds command delivery and the reboot button (asked first): the device page has no
 * slot for header actions, so reboot lives here.
 */
import { useState, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Form from '@arco-design/web-react/es/Form';
import Message from '@arco-design/web-react/es/Message';
import Modal from '@arco-design/web-react/es/Modal';
import IconPoweroff from '@arco-design/web-react/icon/react-icon/IconPoweroff';
import IconSend from '@arco-design/web-react/icon/react-icon/IconSend';
import { useTranslation } from 'react-i18next';
import { commandRoutes, commandStatuses, commandTypes, type Command } from '../../../server/contract/command.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { EnumSelect } from '../../components/EnumSelect.tsx';
import { ResourceTable } from '../../components/ResourceTable.tsx';
import { useList } from '../../lib/use-list.ts';
import type { DeviceTabProps } from '../device/deviceTab.ts';
import { CodeBlock, prettyJson } from '../../components/CodeBlock.tsx';
import { usePublishedModel } from '../thing-model/usePublishedModel.ts';
import { rebootDevice } from './commandApi.ts';
import { CommandModal } from './CommandModal.tsx';
import { useCommandColumns } from './useCommandColumns.tsx';
import { useLiveCommands } from './useLiveCommands.ts';
import './command.css';

export function CommandTab({ device }: DeviceTabProps): JSX.Element {
  const { t } = useTranslation(['command', 'table']);
  const list = useList(commandRoutes.list, { params: { id: device.id }, syncUrl: false });
  const { model } = usePublishedModel(device.deviceProfileId);
  const [sending, setSending] = useState(false);
  const [viewing, setViewing] = useState<{ title: string; text: string } | null>(null);
  const items = useLiveCommands(device.id, list.items, list.refresh);

  const reboot = async (): Promise<void> => {
    const command = await rebootDevice(device.id);
    if (command.status === 'FAILED') Message.error(t('reboot.failed'));
    else Message.success(t('reboot.sent'));
    await list.refresh();
  };

  const columns = useCommandColumns({ deviceId: device.id, refresh: list.refresh, onView: setViewing });

  return (
    <section data-testid="command-tab">
      <ResourceTable<Command, typeof list.filters>
        testId="cmd"
        list={{ ...list, items }}
        rowKey="id"
        columns={columns}
        emptyText={t('empty')}
        filters={
          <>
            <Form.Item field="commandType" label={t('fields.commandType')}>
              <EnumSelect ns="command" group="type" values={commandTypes} allowClear placeholder={t('table:all')} style={{ width: 150 }} testId="cmd-filter-type" />
            </Form.Item>
            <Form.Item field="status" label={t('fields.status')}>
              <EnumSelect ns="command" group="status" values={commandStatuses} allowClear placeholder={t('table:all')} style={{ width: 150 }} testId="cmd-filter-status" />
            </Form.Item>
          </>
        }
        toolbar={
          <span className="ec-cmd-toolbar">
            <ConfirmButton
              testId="cmd-reboot"
              type="secondary"
              size="default"
              icon={<IconPoweroff />}
              title={t('reboot.confirm', { name: device.alias || device.name })}
              okText={t('reboot.button')}
              onConfirm={reboot}
            >
              {t('reboot.button')}
            </ConfirmButton>
            <Button type="primary" icon={<IconSend />} onClick={() => setSending(true)} data-testid="cmd-open">
              {t('send.button')}
            </Button>
          </span>
        }
      />
      {sending ? <CommandModal device={device} model={model} visible onClose={() => setSending(false)} onSent={() => void list.refresh()} /> : null}
      <Modal
        visible={viewing !== null}
        title={viewing?.title}
        footer={null}
        onCancel={() => setViewing(null)}
        style={{ width: 640, maxWidth: 'calc(100vw - 32px)' }}
      >
        {viewing ? <CodeBlock wrap text={prettyJson(viewing.text)} testId="cmd-json-view" /> : null}
      </Modal>
    </section>
  );
}
