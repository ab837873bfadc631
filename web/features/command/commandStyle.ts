/** Tag colours of the command enums (labels in command.json). */
export const commandStatusColors: Record<string, string> = {
  QUEUED: 'gray',
  SENT: 'blue',
  DELIVERED: 'cyan',
  SUCCESSFUL: 'green',
  TIMEOUT: 'orange',
  EXPIRED: 'orangered',
  FAILED: 'red',
  DELETED: 'gray',
};

export const commandTypeColors: Record<string, string> = { CUSTOM: 'blue', SERVICE: 'purple', ATTRIBUTE: 'cyan', API: 'gold' };
