/**
 * Error toasts for the HTTP client, loading Arco's Message on first use: the login page should not
 * download the toast machinery before anything has gone wrong.
 */
export function notifyError(text: string): void {
  void import('./message.ts').then(({ Message }) => Message.error(text));
}
