/** Types for @arco-design/color, which ships none (only the calls theme.ts makes). */
declare module '@arco-design/color' {
  type Format = 'hex' | 'rgb' | 'hsl';
  export function generate(color: string, options: { list: true; dark?: boolean; format?: Format }): string[];
  export function generate(color: string, options?: { index?: number; dark?: boolean; format?: Format }): string;
  /** 'r,g,b' of a colour, the form Arco's CSS variables hold. */
  export function getRgbStr(color: string): string;
}
