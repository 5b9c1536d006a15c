/**
 * The artifacts port: what builds leave behind. AWS: objects of the artifacts bucket
 * (`artifacts/<deploymentId>/`: the static output and the function package; `cache/<projectId>/`:
 * the dependency cache); build logs are in CloudWatch Logs with their own retention. One machine:
 * folders under `DATA_DIR` (shared/deployments/paths.ts), the build log beside the output.
 */
export interface ArtifactsPort {
  /** Deletes what a deployment serves (static files, function package); its build log stays. */
  removeOutput(deploymentId: string): Promise<void>;
  /** Deletes everything a deployment's build left, its build log included where it is kept here. */
  removeDeployment(deploymentId: string): Promise<void>;
  /** Deletes a project's dependency cache. */
  removeCache(projectId: string): Promise<void>;
}
