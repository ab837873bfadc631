/** STUB — implemented by the licence work: reads `--license-public-key` PEM files. */
export function readLicenseKeyFiles(_files: string[]): string[] { return []; }
