/** Wizard step "column type": a CSV column (or none) per device field, a sample value, the file's first rows. */
import type { JSX } from 'react';
import Alert from '@arco-design/web-react/es/Alert';
import Select from '@arco-design/web-react/es/Select';
import Table from '@arco-design/web-react/es/Table';
import { useTranslation } from 'react-i18next';
import type { ImportPreview } from '../../../../server/contract/device-import.ts';
import { mappingTargets, type MappingChoice, type MappingProblem, type MappingTarget } from '../importMapping.ts';

const SKIP = -1;
const PREVIEW_ROWS = 5;

export interface ColumnMappingStepProps {
  preview: ImportPreview;
  choice: MappingChoice;
  problems: MappingProblem[];
  onChange: (choice: MappingChoice) => void;
}

export function ColumnMappingStep({ preview, choice, problems, onChange }: ColumnMappingStepProps): JSX.Element {
  const { t } = useTranslation('deviceImport');
  const columnLabel = (index: number): string => `${index + 1}. ${preview.columns[index]?.trim() || t('mapping.untitled')}`;
  const options = [{ label: t('mapping.skip'), value: SKIP }, ...preview.columns.map((_, i) => ({ label: columnLabel(i), value: i }))];
  const firstRow = preview.sample[0] ?? [];

  const rows = mappingTargets.map((target) => ({ target }));
  const problemOf = (target: MappingTarget): MappingProblem | undefined => problems.find((p) => p.target === target);

  return (
    <div className="ec-mapping">
      <Alert type="info" className="ec-wizard__note" content={t('mapping.hint')} />
      <Table
        size="small"
        rowKey="target"
        pagination={false}
        border={false}
        data={rows}
        data-testid="import-mapping"
        columns={[
          {
            title: t('mapping.field'),
            dataIndex: 'target',
            width: 180,
            render: (target: MappingTarget) => (
              <span className={target === 'name' ? 'ec-required' : undefined}>{t(`targets.${target}`)}</span>
            ),
          },
          {
            title: t('mapping.column'),
            dataIndex: 'target',
            key: 'column',
            render: (target: MappingTarget) => {
              const problem = problemOf(target);
              const id = `import-map-${target}-problem`;
              return (
                <div>
                  <Select
                    size="small"
                    value={choice[target] ?? SKIP}
                    options={options}
                    status={problem ? 'error' : undefined}
                    aria-label={t(`targets.${target}`)}
                    aria-describedby={problem ? id : undefined}
                    onChange={(value: number) => onChange({ ...choice, [target]: value === SKIP ? null : value })}
                    style={{ width: 260 }}
                    data-testid={`import-map-${target}`}
                  />
                  {problem ? (
                    <div id={id} className="ec-field-problem" role="alert" data-testid={id}>
                      {t(problem.key)}
                    </div>
                  ) : target === 'token' && choice.token === null ? (
                    <div className="ec-field-hint">{t('mapping.tokenHint')}</div>
                  ) : null}
                </div>
              );
            },
          },
          {
            title: t('mapping.sample'),
            dataIndex: 'target',
            key: 'sample',
            render: (target: MappingTarget) => {
              const index = choice[target];
              return <span className="ec-sample">{index === null ? '—' : (firstRow[index] ?? '')}</span>;
            },
          },
        ]}
      />
      <h3 className="ec-wizard__subtitle">{t('mapping.preview', { count: Math.min(PREVIEW_ROWS, preview.sample.length) })}</h3>
      <Table
        size="small"
        border
        pagination={false}
        scroll={{ x: Math.max(600, preview.columns.length * 140) }}
        rowKey="key"
        data={preview.sample.slice(0, PREVIEW_ROWS).map((cells, row) => ({ key: row, cells }))}
        columns={preview.columns.map((_, i) => ({
          title: columnLabel(i),
          key: String(i),
          ellipsis: true,
          render: (_: unknown, record: { cells: string[] }) => record.cells[i] ?? '',
        }))}
        data-testid="import-sample"
      />
    </div>
  );
}
