/** UTF-8 text as base64 (the contents route's `content`), in chunks so a large file fits. */
export function base64OfText(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export function textOfBase64(b64: string): string {
  const binary = atob(b64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new TextDecoder().decode(bytes);
}

/** The `.gitattributes` patterns that send files to Git LFS, as a test of a path. */
export function lfsMatcher(gitattributes: string | undefined): (path: string) => boolean {
  const patterns = (gitattributes ?? '')
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter((parts) => parts.length > 1 && !parts[0]?.startsWith('#') && parts.includes('filter=lfs'))
    .map((parts) => parts[0] as string);
  const tests = patterns.map((p) => {
    const anchored = p.includes('/') && !p.startsWith('**/');
    const body = p
      .replace(/^\//, '')
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*\*\/?/g, '\uE000')
      .replace(/\*/g, '[^/]*')
      .replace(/\?/g, '[^/]')
      .replace(/\uE000/g, '.*');
    return new RegExp(anchored ? `^${body}$` : `(^|/)${body}$`);
  });
  return (path) => tests.some((t) => t.test(path));
}
