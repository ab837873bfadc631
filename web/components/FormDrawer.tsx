/**
 * A create/edit form in an Arco Drawer (drawer widths 300, 500, 50%, 70%).
 * - `onSubmit` receives the validated values; while it runs the submit button shows loading;
 * - a failure whose `details[].field` names a form field is shown on that field (its `key`
 *   translated from errors.json); any other failure is shown inline above the buttons;
 * - closing (×, Esc, Cancel, mask) with unsaved changes asks first (`useLeaveGuard` +
 *   `confirmLeave()`), and so does navigating away while it is open;
 * - the form is mounted on open only, so each opening starts from `initialValues`.
 * Form calls should be `silent` so their failure is not shown twice.
 *
 * @example
 * <FormDrawer<CategoryValues>
 *   testId="category-drawer"                       // -> category-drawer-submit / -cancel
 *   visible={open} mode={editing ? 'edit' : 'create'}
 *   title={editing ? t('editTitle') : t('createTitle')}
 *   initialValues={editing ? valuesOf(editing) : emptyValues}
 *   fields={['name', 'domain', 'status', 'type']}   // server details mapped onto these
 *   onSubmit={async (values) => { await saveCategory(values, editing?.id); list.refresh(); }}
 *   onClose={() => setOpen(false)}
 * >
 *   {(form) => <Form.Item field="name" label={t('name')} rules={nameRules(t)}><Input /></Form.Item>}
 * </FormDrawer>
 */
import { useState, type JSX, type ReactNode } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Drawer from '@arco-design/web-react/es/Drawer';
import Form from '@arco-design/web-react/es/Form';
import type { FormInstance } from '@arco-design/web-react/es/Form';
import { useTranslation } from 'react-i18next';
import { errorMessage, serverFieldErrors } from '../lib/error-text.ts';
import { confirmLeave, useLeaveGuard } from '../lib/leave-guard.ts';
import { FormError } from './FormError.tsx';
import { useReturnFocus } from '../lib/return-focus.ts';
import './FormDrawer.css';

/** The console's drawer widths. */
export type DrawerWidth = 300 | 500 | '50%' | '70%';

export interface FormDrawerProps<V extends object> {
  visible: boolean;
  mode: 'create' | 'edit';
  title: ReactNode;
  width?: DrawerWidth;
  initialValues: Partial<V>;
  /** Form fields that server validation details may name. */
  fields: readonly (keyof V & string)[];
  /** Saves; a rejection keeps the drawer open and shows the failure. Resolving closes it. */
  onSubmit: (values: V) => Promise<unknown>;
  onClose: () => void;
  /** Prefix of the `data-testid`s: `<testId>`, `-submit`, `-cancel`, `-error`. */
  testId: string;
  /** Form items; the function form receives the form instance (e.g. to watch a field). */
  children: ReactNode | ((form: FormInstance<V>) => ReactNode);
  /** Submit button text; "OK" when creating and "Save" when editing by default. */
  submitText?: ReactNode;
  layout?: 'vertical' | 'horizontal';
}

function blank(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

/** Whether the form differs from where it started ('' and null count as the same empty value). */
function differs(initial: Record<string, unknown>, current: Record<string, unknown>): boolean {
  const keys = new Set([...Object.keys(initial), ...Object.keys(current)]);
  for (const key of keys) {
    const a = initial[key];
    const b = current[key];
    if (blank(a) && blank(b)) continue;
    if (JSON.stringify(a) !== JSON.stringify(b)) return true;
  }
  return false;
}

export function FormDrawer<V extends object>(props: FormDrawerProps<V>): JSX.Element {
  const { visible, onClose, width = 500, testId } = props;
  const { t } = useTranslation('table');
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState(false);
  useLeaveGuard(visible && dirty);
  const returnFocus = useReturnFocus(visible);

  const close = (): void => {
    setDirty(false);
    setSaving(false);
    onClose();
  };
  const requestClose = (): void => {
    if (saving) return;
    void (async () => {
      if (!dirty || (await confirmLeave())) close();
    })();
  };

  return (
    <Drawer
      visible={visible}
      title={props.title}
      width={width}
      onCancel={requestClose}
      maskClosable
      unmountOnExit
      afterClose={returnFocus}
      footer={null}
      className="ec-form-drawer"
      data-testid={testId}
    >
      {visible ? (
        <DrawerForm
          {...props}
          saving={saving}
          setSaving={setSaving}
          setDirty={setDirty}
          onCancel={requestClose}
          onSaved={close}
          submitText={props.submitText ?? (props.mode === 'edit' ? t('save') : t('submit'))}
        />
      ) : null}
    </Drawer>
  );
}

interface DrawerFormProps<V extends object> extends FormDrawerProps<V> {
  saving: boolean;
  setSaving: (saving: boolean) => void;
  setDirty: (dirty: boolean) => void;
  onCancel: () => void;
  onSaved: () => void;
}

function DrawerForm<V extends object>(props: DrawerFormProps<V>): JSX.Element {
  const { t } = useTranslation('table');
  const [form] = Form.useForm<V>();
  const [failure, setFailure] = useState<string | null>(null);
  const { testId, saving, setSaving } = props;

  const submit = async (values: V): Promise<void> => {
    setSaving(true);
    setFailure(null);
    try {
      await props.onSubmit(values);
      props.onSaved();
    } catch (err) {
      setSaving(false);
      const fieldErrors = serverFieldErrors(err, values, props.fields);
      if (fieldErrors) form.setFields(fieldErrors as Parameters<typeof form.setFields>[0]);
      else setFailure(errorMessage(err));
    }
  };

  return (
    <Form<V>
      form={form}
      layout={props.layout ?? 'vertical'}
      initialValues={props.initialValues}
      onSubmit={(values) => void submit(values)}
      disabled={saving}
      onValuesChange={(_, all) => props.setDirty(differs(props.initialValues as Record<string, unknown>, all as Record<string, unknown>))}
      className="ec-form-drawer__form"
    >
      {typeof props.children === 'function' ? props.children(form) : props.children}
      <FormError message={failure} testId={`${testId}-error`} />
      <div className="ec-form-drawer__footer">
        <Button onClick={props.onCancel} data-testid={`${testId}-cancel`}>
          {t('cancel')}
        </Button>
        <Button type="primary" htmlType="submit" loading={saving} data-testid={`${testId}-submit`}>
          {props.submitText}
        </Button>
      </div>
    </Form>
  );
}
