/**
 * Up to two characters standing in for a missing avatar: a Chinese name's last two characters
 * (the given name), else the first letters of the first two words, else the first two letters.
 */
export function initials(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) return '?';
  if (/^[\u4e00-\u9fa5]/.test(trimmed)) return trimmed.slice(-2);
  const words = trimmed.split(/[\s._@-]+/).filter(Boolean);
  const letters = words.length > 1 ? `${words[0]?.[0] ?? ''}${words[1]?.[0] ?? ''}` : trimmed.slice(0, 2);
  return letters.toUpperCase();
}
