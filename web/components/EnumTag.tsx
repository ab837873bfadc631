/**
 * A contract enum value as a coloured, localized tag. Labels live in a locale namespace under
 * `<ns>:<group>.<VALUE>`; an unknown value shows as itself rather than a raw key. Enum labels
 * shared by several areas: `product:deviceType.*`, `product:transportType.*`,
 * `product:tcpProtocolType.*`, `product:tcpAuthType.*`, `product:status.*`,
 * `category:type.*`, `category:status.*`.
 *
 * @example
 * <EnumTag ns="product" group="deviceType" value={row.deviceType}
 *          colors={{ GATEWAY: 'arcoblue', SENSOR: 'green' }} testId={`device-type-${row.id}`} />
 */
import type { JSX } from 'react';
import Tag from '@arco-design/web-react/es/Tag';
import { useTranslation } from 'react-i18next';
import type { Namespace } from '../i18n/namespaces.ts';

export interface EnumTagProps {
  /** Locale namespace holding the labels. */
  ns: Namespace;
  /** Key of the label group inside the namespace. */
  group: string;
  value: string | number | null | undefined;
  /** Arco tag colour per value (`arcoblue`, `green`, `orange`, `red`, `gray`…). */
  colors?: Record<string, string>;
  testId?: string;
  size?: 'small' | 'default' | 'medium' | 'large';
}

/** The localized label of an enum value (for selects and plain text next to tags). */
export function useEnumLabel(ns: Namespace, group: string): (value: string | number) => string {
  // Loads the namespace (and re-renders on a language change); keys are built at run time.
  const { i18n } = useTranslation(ns);
  return (value) => {
    const key = `${ns}:${group}.${value}`;
    return i18n.exists(key) ? String(i18n.t(key as never)) : String(value);
  };
}

export function EnumTag({ ns, group, value, colors, testId, size = 'small' }: EnumTagProps): JSX.Element | null {
  const label = useEnumLabel(ns, group);
  if (value === null || value === undefined || value === '') return null;
  return (
    <Tag size={size} color={colors?.[String(value)]} data-testid={testId} bordered={false}>
      {label(value)}
    </Tag>
  );
}
