import { newId } from '../../kernel/store/ids';
import { assertActive, requireProject } from '../projects/records';
import { ARCHIVE_CONTENT_TYPE, presignSourcePut, sourceKey, UPLOAD_LINK_SECONDS } from './sources';

/**
 * `POST .../uploads`: a presigned PUT for one source archive. The archive goes straight to the
 * platform's bucket (its bytes never pass through the API) and must be sent with exactly the
 * returned headers: on S3 both are signed, so another type or length is refused.
 */
export async function createUpload(orgId: string, projectId: string, size: number) {
  const project = await requireProject(orgId, projectId);
  assertActive(project);
  const uploadId = newId('up_');
  const url = await presignSourcePut(sourceKey(projectId, uploadId), size);
  return {
    uploadId,
    url,
    headers: { 'content-type': ARCHIVE_CONTENT_TYPE, 'content-length': String(size) },
    expiresIn: UPLOAD_LINK_SECONDS,
  };
}
