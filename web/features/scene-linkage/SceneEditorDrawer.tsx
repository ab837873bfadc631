/**
 * The scene editor (drawer, 70 % width) with the spec's four parts: triggers (any one fires),
 * condition filters (all must hold), execution actions, and one clear-alarm entry per trigger; plus
 * the schedule rule saying when the scene is in force. Before saving, the shared scene rules
 * (server/contract/rules/scene-linkage.ts) run on what was entered and put each problem on its
 * field; the server's own refusals land there too.
 */
import { useMemo, useRef, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Divider from '@arco-design/web-react/es/Divider';
import Form from '@arco-design/web-react/es/Form';
import type { FormInstance } from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import Switch from '@arco-design/web-react/es/Switch';
import IconDelete from '@arco-design/web-react/icon/react-icon/IconDelete';
import IconPlus from '@arco-design/web-react/icon/react-icon/IconPlus';
import { useTranslation } from 'react-i18next';
import {
  SCENE_ACTIONS_MAX,
  SCENE_CONDITIONS_MAX,
  SCENE_DESCRIPTION_MAX,
  SCENE_NAME_MAX,
  SCENE_TRIGGERS_MAX,
  type Scene,
  type Trigger,
} from '../../../server/contract/scene-linkage.ts';
import type { ThingModelTsl } from '../../../server/contract/thing-model.ts';
import { FormDrawer } from '../../components/FormDrawer.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { errorKeyText } from '../../lib/error-text.ts';
import { problemText } from '../../lib/form-rules.ts';
import { ActionFields } from './ActionFields.tsx';
import { ComparisonFields, useFieldValue } from './ComparisonFields.tsx';
import { browserTimeZone } from './nextRuns.ts';
import { ScheduleFields } from './ScheduleFields.tsx';
import { createScene, updateScene } from './sceneApi.ts';
import { formPathOf, productsOf, sceneFormViolations } from './sceneCheck.ts';
import { emptyAction, emptyTrigger, sceneBody, type SceneValues, type TriggerValues } from './sceneForm.ts';
import { SceneChoices, SceneChoicesContext } from './useSceneChoices.ts';
import { TriggerFields } from './TriggerFields.tsx';
import { triggerSummary, type SceneText } from './triggerSummary.ts';
import { useSceneText } from './useSceneText.ts';
import './scene-linkage.css';

export interface SceneEditorDrawerProps {
  visible: boolean;
  /** The scene edited (none: a new one). */
  scene?: Scene;
  initialValues: SceneValues;
  /** Every saved scene: scene-trigger choices and the cycle check. */
  scenes: readonly Scene[];
  onClose: () => void;
  onSaved: (scene: Scene) => void;
}

/** The form paths of a refused save, from the shared rules or the server's `details`. */
function showProblems(form: FormInstance, problems: readonly { field: string; text: string }[]): void {
  const fields: Record<string, { error: { message: string } }> = {};
  for (const p of problems) {
    const path = formPathOf(p.field.replace(/^body\./, ''));
    fields[path] ??= { error: { message: p.text } };
  }
  form.setFields(fields as Parameters<FormInstance['setFields']>[0]);
}

export function SceneEditorDrawer(props: SceneEditorDrawerProps): JSX.Element {
  const { t } = useTranslation('scene');
  const formRef = useRef<FormInstance | null>(null);
  // A fresh cache per opening: a model published meanwhile shows the next time.
  // oxlint-disable-next-line react-hooks/exhaustive-deps -- `visible` is the point: one cache per opening.
  const choices = useMemo(() => new SceneChoices(), [props.visible]);
  const otherScenes = props.scenes.filter((s) => s.id !== props.scene?.id);

  const submit = async (values: SceneValues): Promise<void> => {
    const form = formRef.current;
    const productIds = [...new Set([...values.actions.map((a) => a.deviceProfileId).filter((id): id is string => Boolean(id))])];
    await Promise.all(productIds.map((id) => choices.model(id)));
    const body = sceneBody(values, (id) => choices.loadedModel(id));
    const models = new Map<string, ThingModelTsl | null>();
    for (const id of productsOf(body)) models.set(id, await choices.model(id));
    const violations = sceneFormViolations({ body, sceneId: props.scene?.id, models, scenes: props.scenes });
    if (violations.length) {
      if (form) showProblems(form, violations.map((v) => ({ field: v.field, text: problemText(v) })));
      throw new ApiError('http', problemText({ key: 'error.scene.invalid' }), 400);
    }
    try {
      const saved = props.scene ? await updateScene({ id: props.scene.id, ...body }) : await createScene(body);
      props.onSaved(saved);
    } catch (err) {
      const details = err instanceof ApiError ? (err.body?.details ?? []) : [];
      if (form && details.length) showProblems(form, details.map((d) => ({ field: d.field, text: errorKeyText(d.key ?? 'error.validation') })));
      throw err;
    }
  };

  return (
    <FormDrawer<SceneValues>
      testId="scene-drawer"
      visible={props.visible}
      mode={props.scene ? 'edit' : 'create'}
      title={props.scene ? t('editTitle') : t('createTitle')}
      width="70%"
      initialValues={props.initialValues}
      fields={['name', 'description']}
      onSubmit={submit}
      onClose={props.onClose}
    >
      {(form) => {
        formRef.current = form as unknown as FormInstance;
        return (
          <SceneChoicesContext.Provider value={choices}>
            <SceneEditorParts form={form as unknown as FormInstance} scenes={otherScenes} />
          </SceneChoicesContext.Provider>
        );
      }}
    </FormDrawer>
  );
}

function PartTitle({ title, hint }: { title: string; hint?: string }): JSX.Element {
  return (
    <Divider orientation="left" className="ec-scene-part">
      <span className="ec-scene-part__title">{title}</span>
      {hint ? <span className="ec-scene-part__hint">{hint}</span> : null}
    </Divider>
  );
}

function ItemCard({ title, removeLabel, onRemove, testId, children }: { title: string; removeLabel?: string; onRemove?: () => void; testId: string; children: JSX.Element | JSX.Element[] }): JSX.Element {
  return (
    <section className="ec-scene-card" data-testid={testId} aria-label={title}>
      <header className="ec-scene-card__head">
        <span>{title}</span>
        {onRemove ? (
          <Button type="text" status="danger" size="mini" icon={<IconDelete />} aria-label={removeLabel} title={removeLabel} onClick={onRemove} data-testid={`${testId}-remove`} />
        ) : null}
      </header>
      {children}
    </section>
  );
}

function SceneEditorParts({ form, scenes }: { form: FormInstance; scenes: readonly Scene[] }): JSX.Element {
  const { t } = useTranslation('scene');
  const triggers = useFieldValue<TriggerValues[]>(form, 'triggers') ?? [];
  const names = (id: string): string | undefined => scenes.find((s) => s.id === id)?.name;
  return (
    <div className="ec-scene-editor">
      <PartTitle title={t('part.basic')} />
      <div className="ec-scene-row">
        <Form.Item field="name" label={t('name')} rules={[{ required: true, message: t('rule.nameRequired') }]}>
          <Input maxLength={SCENE_NAME_MAX} showWordLimit placeholder={t('namePlaceholder')} style={{ width: 280 }} data-testid="scene-form-name" />
        </Form.Item>
        <Form.Item field="enabled" label={t('enabled')} triggerPropName="checked">
          <Switch aria-label={t('enabled')} data-testid="scene-form-enabled" />
        </Form.Item>
      </div>
      <Form.Item field="description" label={t('description')}>
        <Input.TextArea maxLength={SCENE_DESCRIPTION_MAX} autoSize={{ minRows: 1, maxRows: 4 }} data-testid="scene-form-description" />
      </Form.Item>

      <PartTitle title={t('part.schedule')} />
      <ScheduleFields form={form} />

      <PartTitle title={t('part.triggers')} hint={t('part.triggersHint')} />
      <Form.List field="triggers">
        {(fields, { add, remove }) => (
          <>
            {fields.map(({ key, field }, i) => (
              <ItemCard
                key={key}
                title={t('itemTitle.trigger', { index: i + 1 })}
                removeLabel={t('remove.trigger', { index: i + 1 })}
                onRemove={fields.length > 1 ? () => remove(i) : undefined}
                testId={`scene-trigger-${i}`}
              >
                <TriggerFields form={form} field={field} testId={`scene-trigger-${i}`} scenes={scenes} />
              </ItemCard>
            ))}
            {fields.length < SCENE_TRIGGERS_MAX ? (
              <Button type="dashed" long icon={<IconPlus />} onClick={() => add(emptyTrigger('DEVICE_TRIGGER', browserTimeZone()))} data-testid="scene-trigger-add">
                {t('add.trigger')}
              </Button>
            ) : null}
          </>
        )}
      </Form.List>
      {triggers.some((tr) => tr.type === 'HAND_ACT') ? (
        <Form.Item className="ec-scene-for-customers" field="forCustomers" label={t('field.forCustomers')} triggerPropName="checked" extra={t('hint.forCustomers')}>
          <Switch aria-label={t('field.forCustomers')} data-testid="scene-form-for-customers" />
        </Form.Item>
      ) : (
        <></>
      )}

      <PartTitle title={t('part.conditions')} hint={t('part.conditionsHint')} />
      <Form.List field="conditions">
        {(fields, { add, remove }) => (
          <>
            {fields.map(({ key, field }, i) => (
              <ItemCard
                key={key}
                title={t('itemTitle.condition', { index: i + 1 })}
                removeLabel={t('remove.condition', { index: i + 1 })}
                onRemove={() => remove(i)}
                testId={`scene-condition-${i}`}
              >
                <ComparisonFields form={form} field={field} testId={`scene-condition-${i}`} />
              </ItemCard>
            ))}
            {fields.length < SCENE_CONDITIONS_MAX ? (
              <Button
                type="dashed"
                long
                icon={<IconPlus />}
                onClick={() => add({ allDevices: true, deviceIds: [], operation: 'GREATER', valueType: 'NUMERIC' })}
                data-testid="scene-condition-add"
              >
                {t('add.condition')}
              </Button>
            ) : null}
          </>
        )}
      </Form.List>

      <PartTitle title={t('part.actions')} />
      <Form.List field="actions">
        {(fields, { add, remove }) => (
          <>
            {fields.map(({ key, field }, i) => (
              <ItemCard
                key={key}
                title={t('itemTitle.action', { index: i + 1 })}
                removeLabel={t('remove.action', { index: i + 1 })}
                onRemove={fields.length > 1 ? () => remove(i) : undefined}
                testId={`scene-action-${i}`}
              >
                <ActionFields form={form} field={field} testId={`scene-action-${i}`} />
              </ItemCard>
            ))}
            {fields.length < SCENE_ACTIONS_MAX ? (
              <Button type="dashed" long icon={<IconPlus />} onClick={() => add(emptyAction('MSG_NOTIFY'))} data-testid="scene-action-add">
                {t('add.action')}
              </Button>
            ) : null}
          </>
        )}
      </Form.List>

      <PartTitle title={t('part.clearRules')} hint={t('part.clearRulesHint')} />
      {triggers.map((trigger, i) => (
        <ClearRuleCard key={i} form={form} index={i} trigger={trigger} names={names} />
      ))}
    </div>
  );
}

/** A summary line of a trigger still being edited (fields may be missing). */
function draftSummary(trigger: TriggerValues, t: SceneText, names: (id: string) => string | undefined): string {
  try {
    return triggerSummary({ ...trigger, key: trigger.key ?? '?' } as Trigger, t, names);
  } catch {
    return t(`triggerType.${trigger.type}`);
  }
}

function ClearRuleCard({ form, index, trigger, names }: { form: FormInstance; index: number; trigger: TriggerValues; names: (id: string) => string | undefined }): JSX.Element {
  const { t } = useTranslation('scene');
  const field = `triggers[${index}].clear`;
  const enabled = useFieldValue<boolean>(form, `${field}.enabled`);
  const text = useSceneText();
  return (
    <ItemCard title={t('hint.clearFor', { index: index + 1, summary: draftSummary(trigger, text, names) })} testId={`scene-clear-${index}`}>
      <Form.Item field={`${field}.enabled`} label={t('field.clearEnabled')} triggerPropName="checked">
        <Switch aria-label={`${t('field.clearEnabled')} ${index + 1}`} data-testid={`scene-clear-${index}-enabled`} />
      </Form.Item>
      {enabled ? <ComparisonFields form={form} field={field} testId={`scene-clear-${index}`} /> : <></>}
    </ItemCard>
  );
}
