/**
 * Menu icons by name. The route table names its icons instead of importing them so the entry
 * chunk (login page) does not carry them; only the main layout's chunk does.
 */
import type { ComponentType, CSSProperties } from 'react';
import IconApps from '@arco-design/web-react/icon/react-icon/IconApps';
import IconDashboard from '@arco-design/web-react/icon/react-icon/IconDashboard';
import IconDesktop from '@arco-design/web-react/icon/react-icon/IconDesktop';
import IconMindMapping from '@arco-design/web-react/icon/react-icon/IconMindMapping';
import IconSettings from '@arco-design/web-react/icon/react-icon/IconSettings';
import IconStorage from '@arco-design/web-react/icon/react-icon/IconStorage';
import IconThunderbolt from '@arco-design/web-react/icon/react-icon/IconThunderbolt';
import IconTool from '@arco-design/web-react/icon/react-icon/IconTool';
import IconVideoCamera from '@arco-design/web-react/icon/react-icon/IconVideoCamera';

export const menuIcons = {
  dashboard: IconDashboard,
  device: IconStorage,
  gateway: IconMindMapping,
  maintenance: IconTool,
  rule: IconThunderbolt,
  visualization: IconDesktop,
  video: IconVideoCamera,
  system: IconSettings,
  operation: IconApps,
} satisfies Record<string, ComponentType<{ style?: CSSProperties }>>;

export type MenuIconName = keyof typeof menuIcons;

/** Menu icons are 14 px. */
export const MENU_ICON_SIZE = 14;
