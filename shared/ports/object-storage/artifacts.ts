import { artifactsBucket } from '../../kernel/config';
import { storage } from './index';

/**
 * An object of the platform's own bucket (`artifactsBucket()`: source archives, LFS objects,
 * attachments): its size and age, or undefined when nothing is there (never written, or expired).
 */
export async function headArtifact(key: string): Promise<{ size: number; lastModified?: number } | undefined> {
  try {
    const info = await storage().headObject({ name: artifactsBucket() }, key);
    return { size: info.size, lastModified: info.lastModified };
  } catch (err) {
    const name = (err as { name?: string }).name;
    const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    if (name === 'NotFound' || name === 'NoSuchKey' || status === 404) return undefined;
    throw err;
  }
}
