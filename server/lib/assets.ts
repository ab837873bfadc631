/** STUB — implemented by the build work: where the console's built files come from. */
export interface Asset { body: Buffer; br?: Buffer; gzip?: Buffer; contentType: string; immutable: boolean }
export interface AssetSource { get(path: string): Asset | undefined }
export function loadAssets(): AssetSource | null { return null; }
