import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { storage } from '../../shared/ports/object-storage';
import { TestPlatform } from '../helpers/platform';

/** A test file's platform for the tracker: its own data folder and artifacts bucket (attachments, exports). */
export async function trackerPlatform(name: string): Promise<TestPlatform> {
  process.env.DATA_DIR = mkdtempSync(join(process.env.TEST_DATA_DIR as string, `${name}-`));
  process.env.ARTIFACTS_BUCKET = `${name}-${Date.now().toString(36)}`;
  await storage().createBucket(process.env.ARTIFACTS_BUCKET);
  return TestPlatform.start();
}

/** Short helpers over a platform: the tracker's paths. */
export const paths = (p: TestPlatform) => {
  const base = `/v1/orgs/${p.org.orgId}/issues`;
  return {
    base,
    spaces: `${base}/spaces`,
    space: (key: string) => `${base}/spaces/${key}`,
    boards: `${base}/boards`,
    board: (id: string) => `${base}/boards/${id}`,
    issue: (key: string) => `${base}/${key}`,
  };
};
