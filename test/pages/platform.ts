import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { storage } from '../../shared/ports/object-storage';
import { TestPlatform } from '../helpers/platform';

/** A test file's platform for pages: its own data folder and artifacts bucket (page content). */
export async function pagesPlatform(name: string): Promise<TestPlatform> {
  process.env.DATA_DIR = mkdtempSync(join(process.env.TEST_DATA_DIR as string, `${name}-`));
  process.env.ARTIFACTS_BUCKET = `${name}-${Date.now().toString(36)}`;
  await storage().createBucket(process.env.ARTIFACTS_BUCKET);
  return TestPlatform.start();
}
