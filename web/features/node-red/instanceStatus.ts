/** How an instance's status, memory and CPU show in the list and on its detail page. */
export const nodeRedStatusColors: Record<string, string> = { RUNNING: 'green', STARTING: 'arcoblue', STOPPED: 'gray', CRASHED: 'red' };

/** Resident memory in MB, or a dash while the instance does not run. */
export function memoryText(rssBytes: number | undefined): string {
  return rssBytes === undefined ? '—' : `${Math.round(rssBytes / 1048576)} MB`;
}

/** CPU share of one core, or a dash until the instance has been sampled twice. */
export function cpuText(cpuPercent: number | undefined): string {
  return cpuPercent === undefined ? '—' : `${cpuPercent.toFixed(1)} %`;
}

/** While an instance is starting (or restarting after a crash), pages poll its status this often. */
export const STATUS_POLL_MS = 2000;
