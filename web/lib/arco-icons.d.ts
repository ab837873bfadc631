/**
 * Types for importing one Arco icon by path (`@arco-design/web-react/icon/react-icon/IconX`).
 * The icon barrel re-exports all 284 icons; importing through it makes esbuild's code splitting
 * treat every used icon as reachable from every importer, so the login chunk would carry the
 * menu's icons.
 */
declare module '@arco-design/web-react/icon/react-icon/*' {
  import type { CSSProperties, ForwardRefExoticComponent, RefAttributes, SVGAttributes } from 'react';

  const Icon: ForwardRefExoticComponent<
    SVGAttributes<SVGElement> & { style?: CSSProperties; spin?: boolean } & RefAttributes<unknown>
  >;
  export default Icon;
}
